// What the typings refuse: kept in the build so that `tsc --noEmit` proves it.
export function WrongListener() {
  // @ts-expect-error billing-purchase gives a BillingPurchaseEvent, not a MouseEvent.
  return <buy-feature feature="seats" onbilling-purchase={(event: MouseEvent) => event.clientX} />;
}

export function WrongTheme() {
  // @ts-expect-error theme is 'light' or 'dark'.
  return <usage-meter feature="seats" theme="blue" />;
}
