// Framework-neutral typings of the tags, for the JSX and template declarations next to this
// file (react.d.ts, vue.d.ts, svelte.d.ts) and for any other framework's own. Types only.
import type { LitElement } from 'lit';
// The define modules add the tags to HTMLElementTagNameMap; the events module adds the
// `billing-*` events to GlobalEventHandlersEventMap.
import type {} from '../elements/usage-meter/define.js';
import type {} from '../elements/buy-feature/define.js';
import type {} from '../elements/billing-portal/define.js';
import type {} from '../client/events.js';

/** Every element of the package, by tag. */
export type BillingElementTags = Pick<
  HTMLElementTagNameMap,
  'usage-meter' | 'buy-feature' | 'billing-portal'
>;

/** Every `billing-*` event, by name (all of them bubble and cross shadow roots). */
export type BillingEventMap = {
  [
    K in keyof GlobalEventHandlersEventMap as K extends `billing-${string}` ? K : never
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
