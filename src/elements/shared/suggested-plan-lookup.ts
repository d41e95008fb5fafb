import type { ReactiveControllerHost } from 'lit';
import type { UsageStore } from '../../client/usage-store.js';
import { planIncluding, type SuggestedPlan } from './suggested-plan.js';

// Kept apart from suggested-plan.ts: only the elements that look a plan up on their own need it
// (the remedies chunk, vite.config.ts), not a meter showing its figures.

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
