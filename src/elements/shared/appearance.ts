// What an element opens elsewhere in the page (the modal portal at the end of the body) looks
// like it: the same color scheme and accent. The portal's container then carries both to the
// hosted page (the portal script reads its color-scheme and accent-color).

/** Whether a `color-scheme` value names a scheme (`normal` does not). */
const NAMES_A_SCHEME = /\b(light|dark)\b/;

/**
 * Gives `target` (an element about to open elsewhere in the page, such as the modal portal at
 * the end of the body) the color scheme and brand accent of `source`, where they differ from
 * what it would inherit.
 */
export function copyAppearance(source: Element, target: HTMLElement): void {
  const style = getComputedStyle(source);
  if (NAMES_A_SCHEME.test(style.colorScheme)) target.style.colorScheme = style.colorScheme;
  const accent = style.getPropertyValue('--billing-accent').trim();
  if (accent) target.style.setProperty('--billing-accent', accent);
}
