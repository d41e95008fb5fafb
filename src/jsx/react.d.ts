// React 19: the tags in JSX. Opt in where React is installed, e.g. in a .d.ts of the app:
//   /// <reference types="billing-elements/jsx/react" />
// Properties are set as properties (React 19 does this for custom elements) and
// `onbilling-purchase={(event) => …}` listens to the `billing-purchase` event.
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { BillingElementProps, BillingElementTags, BillingEventProps } from './tags.js';

type ReactBillingProps<E extends HTMLElement> = Omit<
  DetailedHTMLProps<HTMLAttributes<E>, E>,
  keyof BillingElementProps<E>
> &
  BillingElementProps<E> &
  BillingEventProps;

type ReactBillingElements = {
  [Tag in keyof BillingElementTags]: ReactBillingProps<BillingElementTags[Tag]>;
};

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements extends ReactBillingElements {}
  }
}
