// Svelte 4 and 5: the tags in templates, for svelte-check and Svelte's editor tooling. Opt in
// where Svelte is installed, e.g. in a .d.ts of the app:
//   /// <reference types="billing-elements/jsx/svelte" />
// Listeners: `onbilling-purchase={…}` (Svelte 5) or `on:billing-purchase={…}` (Svelte 4).
import type { HTMLAttributes } from 'svelte/elements';
import type {
  BillingElementProps,
  BillingElementTags,
  BillingEventMap,
  BillingEventProps,
} from './tags.js';

type SvelteDirectiveEventProps = {
  [K in keyof BillingEventMap as `on:${K}`]?: (event: BillingEventMap[K]) => void;
};

type SvelteBillingProps<E extends HTMLElement> = Omit<
  HTMLAttributes<E>,
  keyof BillingElementProps<E>
> &
  BillingElementProps<E> &
  BillingEventProps &
  SvelteDirectiveEventProps;

type SvelteBillingElements = {
  [Tag in keyof BillingElementTags]: SvelteBillingProps<BillingElementTags[Tag]>;
};

declare module 'svelte/elements' {
  interface SvelteHTMLElements extends SvelteBillingElements {}
}
