import type { BillingError } from '../../client/errors.js';

/** How every console line of the library starts, so that a search of the console finds them all. */
export const CONSOLE_PREFIX = '[billing-elements]';

/** The console lines already written on this page. */
const written = new Set<string>();

/**
 * Writes `line` to the console once per page: a setup mistake an element meets again (on each
 * price, each language change) is told once, not on every render. The line names the element
 * and its attribute, so that two different mistakes are two lines.
 */
export function warnOnce(line: string | undefined): void {
  if (!line || written.has(line)) return;
  written.add(line);
  console.warn(line);
}

/**
 * The console line for a request the proxy refused that only the page's setup can fix:
 * `element` as written in the page (`<buy-feature feature="seats">`), what was refused, and the
 * proxy's own message, which names the rule that was broken (the reference's form, its limits).
 */
export function setupHint(element: string, refused: string, error: BillingError): string {
  return `${CONSOLE_PREFIX} ${element}: the proxy refused ${refused}: ${error.message}`;
}
