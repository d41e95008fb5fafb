// How an element looks on its page, said in words the portal can hand on: what it opens (the
// modal portal, the hosted pages) follows the same color scheme and accent.

export type ColorScheme = 'light' | 'dark';

/** The schemes a `color-scheme` value names, in its order (`normal` and `only` name none). */
function schemesOf(value: string | null | undefined): ColorScheme[] {
  return (value ?? '')
    .split(/\s+/)
    .filter((word): word is ColorScheme => word === 'light' || word === 'dark');
}

/**
 * The scheme an element is drawn in, as the browser picks it: its `color-scheme` (inherited from
 * the page, forced by `theme`), else the page's `<meta name="color-scheme">`; of two, the one the
 * system prefers; light when nothing is declared, whatever the system prefers.
 */
export function usedColorScheme(element: Element): ColorScheme {
  let schemes = schemesOf(getComputedStyle(element).colorScheme);
  if (schemes.length === 0) {
    const meta = document.querySelector<HTMLMetaElement>('meta[name="color-scheme"]');
    schemes = schemesOf(meta?.content);
  }
  if (schemes.length > 1) {
    const dark = matchMedia('(prefers-color-scheme: dark)').matches;
    return dark && schemes.includes('dark') ? 'dark' : 'light';
  }
  return schemes[0] ?? 'light';
}

/** The accent an element resolves (its `accent-color`, which the shared styles set), if any. */
export function accentOf(element: Element): string | undefined {
  const accent = getComputedStyle(element).accentColor;
  return accent && accent !== 'auto' ? accent : undefined;
}

/**
 * Gives `target` (an element about to open elsewhere in the page, such as the modal portal at
 * the end of the body) the color scheme and brand accent of `source`, where they differ from
 * what it would inherit.
 */
export function copyAppearance(source: Element, target: HTMLElement): void {
  const style = getComputedStyle(source);
  if (schemesOf(style.colorScheme).length > 0) target.style.colorScheme = style.colorScheme;
  const accent = style.getPropertyValue('--billing-accent').trim();
  if (accent) target.style.setProperty('--billing-accent', accent);
}
