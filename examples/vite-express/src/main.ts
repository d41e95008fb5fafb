// Registers the elements the page uses (each define module registers one tag).
import 'billing-elements/usage-meter';
import 'billing-elements/buy-feature';
import 'billing-elements/billing-portal';

const status = document.querySelector<HTMLParagraphElement>('#status')!;

// Typed by the define module: `event` is a BillingPurchaseEvent.
document.querySelector('buy-feature')?.addEventListener('billing-purchase', (event) => {
  status.textContent = `You now have ${event.detail.usage.QuantityIncluded} seats.`;
});
