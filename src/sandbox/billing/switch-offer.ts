import type { CatalogOffer } from '../catalog.js';
import { iso } from '../clock.js';
import { featuresForOffer } from '../state/seed.js';
import type { Store } from '../state/store.js';
import type { SubscriptionRecord } from '../state/types.js';
import { boughtAddOns } from './pricing.js';

/** The subscription's features on another offer: counts and bought add-ons carry over. */
function featuresAfterChange(
  store: Store,
  sub: SubscriptionRecord,
  offer: CatalogOffer,
): SubscriptionRecord['features'] {
  const quantities = Object.fromEntries(
    Object.entries(sub.features).map(([ref, f]) => [ref, f.quantityCurrent]),
  );
  return featuresForOffer(store.catalog, offer, quantities, {
    enabledAddOns: boughtAddOns(store.catalog, sub),
  });
}

/** Moves a subscription to another offer now (no checks: the plan made them). */
export function switchOffer(
  store: Store,
  sub: SubscriptionRecord,
  offer: CatalogOffer,
  atMs: number,
): void {
  sub.features = featuresAfterChange(store, sub, offer);
  sub.offer = offer.reference;
  sub.offerAfterTerm = null;
  sub.dateUpdate = iso(atMs);
}
