import type { UsageStore } from '../../client/usage-store.js';

/**
 * What makes a page region: a cause shared by every meter of a store (no subscription, a
 * failure, signed out) is said once per region, by its first meter. The host app may mark its
 * own regions with `data-billing-region`; sections and landmarks are regions too.
 */
const REGION_SELECTOR =
  '[data-billing-region], section, article, aside, main, nav, dialog, [role="region"]';

/** The region of an element: its closest region ancestor, else its document (or shadow root). */
export function regionOf(element: Element): Node {
  return element.closest(REGION_SELECTOR) ?? element.getRootNode();
}

/** Whether `element` is the first member of the store in its region: it speaks for the others. */
export function speaksForRegion(store: UsageStore, element: Element): boolean {
  const region = regionOf(element);
  return store.members().find((member) => regionOf(member) === region) === element;
}
