// Framework-neutral typings of the tags, for the JSX and template declarations next to this
// file (react.d.ts, vue.d.ts, svelte.d.ts) and for any other framework's own. Types only.
import type { LitElement } from 'lit';
import type { BillingEvent } from '../client/events.js';
// Imported from the define modules, whose declarations also add the tags to
// HTMLElementTagNameMap (the events module adds the events to GlobalEventHandlersEventMap).
import type { BillingHistory } from '../elements/billing-history/define.js';
import type { BillingPortal } from '../elements/billing-portal/define.js';
import type { BuyFeature } from '../elements/buy-feature/define.js';
import type { FeatureGate } from '../elements/feature-gate/define.js';
import type { PlanPicker } from '../elements/plan-picker/define.js';
import type { UsageMeter } from '../elements/usage-meter/define.js';

/** Every element of the package, by tag. */
export interface BillingElementTags {
  'usage-meter': UsageMeter;
  'buy-feature': BuyFeature;
  'billing-portal': BillingPortal;
  'plan-picker': PlanPicker;
  'feature-gate': FeatureGate;
  'billing-history': BillingHistory;
}

/** Every `billing-*` event, by name (all of them bubble and cross shadow roots). */
export type BillingEventMap = {
  [
    K in keyof GlobalEventHandlersEventMap as K extends `billing-${string}`
      ? GlobalEventHandlersEventMap[K] extends BillingEvent<unknown>
        ? K
        : never
      : never
  ]: GlobalEventHandlersEventMap[K];
};

type IfEquals<X, Y, Then, Else> =
  (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? Then : Else;

/** Keys of T that can be assigned (not readonly). */
type WritableKeys<T> = {
  [K in keyof T]-?: IfEquals<{ [Q in K]: T[K] }, { -readonly [Q in K]: T[K] }, K, never>;
}[keyof T];

/**
 * The element's own settable properties (those of LitElement and HTMLElement excluded, and
 * no methods), all optional: what a template may set on the tag.
 */
export type BillingElementProps<E> = {
  [
    K in WritableKeys<E> as K extends keyof LitElement
      ? never
      : E[K] extends (...args: never[]) => unknown
        ? never
        : K
  ]?: E[K];
};

/** Listener props named `on<event>` (React 19 and Svelte 5 listen to custom events this way). */
export type BillingEventProps = {
  [K in keyof BillingEventMap as `on${K}`]?: (event: BillingEventMap[K]) => void;
};
