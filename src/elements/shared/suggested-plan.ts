import type { ReactiveControllerHost } from 'lit';
import type { Offer, OfferFeature } from '../../contract/catalog.js';
import type { UsageStore } from '../../client/usage-store.js';

// Which plan to name when the customer's plan lacks a feature: "Single sign-on: not included
// in your plan; Pro includes it." with "Switch to Pro", rather than a bare "Change plan".

/** A plan to suggest: its reference (to open its change-plan workflow) and its title. */
export interface SuggestedPlan {
  offer: string;
  title: string;
}

/** Whether an offer gives a feature: an on/off one included, a quantity one with any included. */
export function gives(feature: OfferFeature | undefined): boolean {
  if (!feature) return false;
  if (feature.TypeFeature === 'OnOff') return feature.IsIncluded === true;
  return feature.QuantityIncluded !== undefined && feature.QuantityIncluded !== 0;
}

/**
 * The least expensive plan, other than the customer's, that gives `feature`, among those with a
 * public price (a plan sold on request has no switch to offer); undefined when none does, or
 * when the offers are unknown.
 */
export function planIncluding(
  offers: readonly Offer[] | null | undefined,
  feature: string,
): SuggestedPlan | undefined {
  const candidates = (offers ?? []).filter(
    (offer) =>
      !offer.IsCurrent &&
      !offer.IsOnRequest &&
      offer.IsVisible !== false &&
      offer.AmountRecurrence !== undefined &&
      gives(offer.Features?.find((terms) => terms.ReferenceFeature === feature)),
  );
  const cheapest = candidates.sort((a, b) => a.AmountRecurrence! - b.AmountRecurrence!)[0];
  return (
    cheapest && {
      offer: cheapest.ReferenceOffer,
      title: cheapest.TitleLocalized ?? cheapest.ReferenceOffer,
    }
  );
}

/**
 * The plan an element suggests for a feature the customer's plan lacks, looked up on first need
 * in the page's offers (the usage store asks for them once) for one proxy and feature at a time:
 * the host updates once a plan is found.
 */
export class SuggestedPlanLookup {
  readonly #host: ReactiveControllerHost;
  /** `endpoint#feature` of the plan looked up (or being looked up). */
  #for = '';
  #plan: SuggestedPlan | undefined;

  constructor(host: ReactiveControllerHost) {
    this.#host = host;
  }

  /**
   * The plan to suggest for `feature` on `store`'s proxy: looked up now if it is not yet, and
   * undefined until the offers are read, or when no plan gives the feature.
   */
  of(store: UsageStore, feature: string): SuggestedPlan | undefined {
    const target = `${store.endpoint}#${feature}`;
    if (this.#for === target) return this.#plan;
    this.#for = target;
    this.#plan = undefined;
    void store.offers().then((offers) => {
      if (this.#for !== target) return;
      this.#plan = planIncluding(offers, feature);
      if (this.#plan) this.#host.requestUpdate();
    });
    return undefined;
  }

  /** The plan already looked up for `feature` on `store`'s proxy, if any, never asking. */
  known(store: UsageStore, feature: string): SuggestedPlan | undefined {
    return this.#for === `${store.endpoint}#${feature}` ? this.#plan : undefined;
  }
}
