// Vue 3.3+: the tags in templates, for vue-tsc and Vue's editor tooling. Opt in where Vue is
// installed, e.g. in a .d.ts of the app:
//   /// <reference types="billing-elements/jsx/vue" />
// Vue must also be told they are custom elements (compilerOptions.isCustomElement), see
// docs/frameworks.md. Shape as recommended by Vue's guide "Vue and Web Components".
import type { EmitFn, HTMLAttributes, PublicProps } from 'vue';
import type { BillingElementProps, BillingElementTags, BillingEventMap } from './tags.js';

type VueBillingElement<E extends HTMLElement> = new () => E & {
  /** @deprecated For template type checking only: not a property of the element. */
  $props: HTMLAttributes & BillingElementProps<E> & PublicProps;
  /** @deprecated For template type checking only: not a property of the element. */
  $emit: EmitFn<{ [K in keyof BillingEventMap]: (event: BillingEventMap[K]) => void }>;
};

type VueBillingElements = {
  [Tag in keyof BillingElementTags]: VueBillingElement<BillingElementTags[Tag]>;
};

declare module 'vue' {
  interface GlobalComponents extends VueBillingElements {}
}
