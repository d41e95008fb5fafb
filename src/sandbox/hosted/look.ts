// The look of a hosted page: the embedding page's color scheme and accent, as the portal script
// passes them (`theme=light|dark`, `accent=#rrggbb` in the query), kept on every link and form of
// the page so that the whole workflow looks the same. Anything else is ignored.

export type Theme = 'light' | 'dark';

export interface PageLook {
  theme?: Theme;
  /** `#rrggbb`, lower case. */
  accent?: string;
}

const HEX_COLOR = /^#[0-9a-f]{6}$/;

/** The look the query asks for, its invalid parts dropped. */
export function readLook(query: URLSearchParams): PageLook {
  const look: PageLook = {};
  const theme = query.get('theme');
  if (theme === 'light' || theme === 'dark') look.theme = theme;
  const accent = query.get('accent')?.trim().toLowerCase();
  if (accent && HEX_COLOR.test(accent)) look.accent = accent;
  return look;
}

/** The query parameters that carry the look on: only valid ones. */
export function lookParams(query: URLSearchParams): URLSearchParams {
  const { theme, accent } = readLook(query);
  const params = new URLSearchParams();
  if (theme) params.set('theme', theme);
  if (accent) params.set('accent', accent);
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
 * The page's own stylesheet lines for an accent it was given (nothing without one). `[lang]`
 * (every hosted page has one) makes the rule as specific as the themes' `:root[data-theme]`,
 * and it comes after them: the given accent wins in either scheme.
 */
export function accentCss({ accent }: PageLook): string {
  return accent ? `:root[lang] { --accent: ${accent}; --accent-ink: ${inkOn(accent)}; }` : '';
}
