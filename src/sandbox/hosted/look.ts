// The look of a hosted page: the embedding page's color scheme, accent and font family, as the
// portal script passes them (`theme=light|dark`, `accent=#rrggbb`, `font=<font-family list>` in
// the query), kept on every link and form of the page so that the whole workflow looks the same.
// Anything else is ignored.

export type Theme = 'light' | 'dark';

export interface PageLook {
  theme?: Theme;
  /** `#rrggbb`, lower case. */
  accent?: string;
  /** A CSS `font-family` list rebuilt from checked names (fontFamily), so safe in a stylesheet. */
  font?: string;
}

const MAX_FONT_LENGTH = 300;
const MAX_FONT_NAMES = 12;
/** A family name as CSS writes it bare: words of letters, digits and hyphens. */
const BARE_NAME = /^-?[A-Za-z][\w-]*(?: [A-Za-z0-9][\w-]*)*$/;

/**
 * The embedding page's `font-family` (its computed value, as the portal script reads it) rebuilt
 * from its names: each one bare or quoted, made only of letters, digits, spaces, hyphens and
 * underscores, then written back as it was written (bare names stay bare, so that generic
 * families and `-apple-system` keep working). Anything else, or nothing usable, gives none: the
 * value goes into a stylesheet, so it is never copied as it came.
 */
export function fontFamily(value: string | null | undefined): string | undefined {
  if (!value || value.length > MAX_FONT_LENGTH) return undefined;
  const names: string[] = [];
  for (const raw of value.split(',')) {
    const item = raw.trim();
    const quoted = /^(["'])(.*)\1$/.exec(item);
    const name = (quoted ? quoted[2] : item)?.replace(/\s+/g, ' ').trim() ?? '';
    if (!BARE_NAME.test(name)) return undefined;
    names.push(quoted ? `"${name}"` : name);
  }
  return names.length > 0 && names.length <= MAX_FONT_NAMES ? names.join(', ') : undefined;
}

const HEX_COLOR = /^#[0-9a-f]{6}$/;

/** The look the query asks for, its invalid parts dropped. */
export function readLook(query: URLSearchParams): PageLook {
  const look: PageLook = {};
  const theme = query.get('theme');
  if (theme === 'light' || theme === 'dark') look.theme = theme;
  const accent = query.get('accent')?.trim().toLowerCase();
  if (accent && HEX_COLOR.test(accent)) look.accent = accent;
  const font = fontFamily(query.get('font'));
  if (font) look.font = font;
  return look;
}

/** The query parameters that carry the look on: only valid ones. */
export function lookParams(query: URLSearchParams): URLSearchParams {
  const { theme, accent, font } = readLook(query);
  const params = new URLSearchParams();
  if (theme) params.set('theme', theme);
  if (accent) params.set('accent', accent);
  if (font) params.set('font', font);
  return params;
}

/** WCAG relative luminance of a `#rrggbb` colour. */
function luminance(hex: string): number {
  const channels = [1, 3, 5].map((start) => {
    const value = parseInt(hex.slice(start, start + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  });
  const [r = 0, g = 0, b = 0] = channels;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

const LIGHT_INK = '#ffffff';
const DARK_INK = '#111111';

/** The text colour on the accent: white or near black, whichever contrasts more with it. */
export function inkOn(accent: string): string {
  const l = luminance(accent);
  const withLight = 1.05 / (l + 0.05);
  const withDark = (l + 0.05) / (luminance(DARK_INK) + 0.05);
  return withLight >= withDark ? LIGHT_INK : DARK_INK;
}

/**
 * The page's own stylesheet lines for the accent and font it was given (nothing without them).
 * `[lang]` (every hosted page has one) makes the rule as specific as the themes'
 * `:root[data-theme]`, and it comes after them: the given accent wins in either scheme.
 */
export function lookCss({ accent, font }: PageLook): string {
  return [
    accent ? `:root[lang] { --accent: ${accent}; --accent-ink: ${inkOn(accent)}; }` : '',
    font ? `:root[lang] { font-family: ${font}; }` : '',
  ].join('');
}

/**
 * The business's own accent for each scheme, with the selectors of the stylesheet's schemes and
 * after them: it replaces the pages' default accent, and an accent given in the query (lookCss,
 * as specific as the most specific of these and later) still wins over it.
 */
export function brandCss(accent: { light: string; dark: string } | undefined): string {
  if (!accent) return '';
  const light = `--accent: ${accent.light}; --accent-ink: ${inkOn(accent.light)};`;
  const dark = `--accent: ${accent.dark}; --accent-ink: ${inkOn(accent.dark)};`;
  return `:root { ${light} } :root[data-theme="dark"] { ${dark} } @media (prefers-color-scheme: dark) { :root:not([data-theme]) { ${dark} } }`;
}
