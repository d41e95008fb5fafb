import { registerTexts, type TextTable } from './i18n.js';

// The built-in wording of the texts several elements share, in English: errors, remedies, the
// portal and the states around a meter's figures; shared-texts.fr.ts holds their French. Keys
// are dotted and kebab-case (`error.network`); an error's key is `error.` and its code as the
// proxy spells it. Each element that shows them registers them when its class is defined; a
// meter shows them only in its rare states (usage-meter/notices.ts), so a page of meters with
// figures does not download them.

/** The shared texts; their keys type every element's (`BillingMessages` in i18n.ts). */
export const sharedTexts = {
  loading: 'Loading…',
  retry: 'Try again',
  close: 'Close',
  'error.generic': 'Something went wrong. Please try again.',
  'error.network': 'Billing could not be reached. Check your connection and try again.',
  'error.upstream-unavailable': 'Billing is unavailable right now. Please try again in a moment.',
  'error.timeout': 'Billing took too long to answer. Please try again.',
  'error.unauthenticated': 'Your session has ended. Sign in again to see your plan.',
  'error.rate-limited': 'Too many requests. Wait a moment and try again.',
  // The answers are of another customer than the one the page shows: signed in since, in
  // another tab of the site. The page shows none of them.
  'error.session-changed':
    'Another account has signed in since this page opened. Reload the page to see its billing.',
  'error.no-subscription': 'No plan yet: choose one first.',
  'error.subscription-suspended': 'Your subscription is suspended. Restart it to continue.',
  // A suspension for a payment method that no longer works: a restart would be refused until a
  // valid one is added (its remedy is `register`), and nothing restarts by itself after that.
  'error.payment-method-invalid':
    'Your subscription is suspended: your payment method no longer works. Update it, then restart your subscription.',
  'error.price-changed': 'The price has changed. Please check the new price.',
  'error.forbidden-origin': 'Billing is unavailable on this page.',
  'error.period-ending': 'Your billing period is ending. Please check the price again.',
  'error.Error.Api.Usage.NoneMatching': 'Not included in your plan.',
  // The same, with the least expensive plan that includes it ({plan}: "Pro").
  'error.not-in-plan.suggest': 'Not included in your plan; included in {plan}.',
  'error.Error.Customer.PaymentSettings.Missing': 'Add a payment method to make this change.',
  'error.Error.Customer.Billing.CappingReached': 'Some invoices are overdue. Pay them to continue.',
  'error.Error.Subscription.NotActive': 'Your subscription is suspended. Restart it to continue.',
  'remedy.change-plan': 'Change plan',
  // A recurring price with its period ({price}: "$49.00"; {period}: "3 months", from Intl).
  'per.Day': '{price}\u00a0/\u00a0day',
  'per.Week': '{price}\u00a0/\u00a0week',
  'per.Month': '{price}\u00a0/\u00a0month',
  'per.Year': '{price}\u00a0/\u00a0year',
  'per.every': '{price} every {period}',
  // A feature the plan lacks, with the least expensive plan that includes it ({plan}: "Pro"):
  // the meters' and gates' wording.
  'state.not-in-plan.suggest': '{label}: not included in your plan; included in {plan}.',
  // The change-plan remedy when one plan is suggested ({plan}: "Pro").
  'remedy.change-plan.to': 'Switch to {plan}',
  'remedy.register': 'Add a payment method',
  'remedy.register.update': 'Update payment method',
  'remedy.pay-invoice': 'Pay overdue invoices',
  'remedy.restart': 'Restart subscription',
  'remedy.offers': 'See plans',
  'remedy.reload': 'Reload the page',
  // Beside a state whose remedy another element of the page offers: brings that one into view.
  'cta.pointer': 'See what to do',
  'portal.title': 'Billing portal',
  'portal.loading': 'Opening the billing portal…',
  'portal.error': 'The billing portal could not be loaded.',
  'portal.unsafe': 'This billing address is not allowed here.',
  'portal.link.home': 'Manage billing',
  'portal.link.offers': 'See plans',
  'portal.link.subscribe': 'Subscribe',
  'portal.link.register': 'Update payment method',
  'portal.link.change-plan': 'Change plan',
  'portal.link.restart': 'Restart subscription',
  'portal.link.pay-invoice': 'Pay invoice',
  'state.no-subscription': 'Choose a plan to get started.',
  'state.signed-out': 'Sign in to see your plan.',
  'state.sign-in': 'Sign in',
  'state.unavailable': 'Billing is unavailable on this page.',
  'state.pending': 'Starts once your subscription is complete',
  // A subscription created but whose checkout is not complete (the client tells it from a
  // suspension: see <buy-feature>'s refusal.ts).
  'error.subscription-pending': 'Your subscription is waiting to be completed.',
  'remedy.subscribe': 'Complete your subscription',
  // A subscribe asked while a subscription runs (from a page that had not seen it start): the
  // plan is changed instead, never a second subscription.
  'error.already-subscribed': 'You already have a subscription. Change its plan instead.',
} as const satisfies TextTable;

let registered = false;

/** Registers the shared texts, once: later registrations and page overrides keep winning. */
export function registerSharedTexts(): void {
  if (registered) return;
  registered = true;
  registerTexts(sharedTexts, { fr: () => import('./shared-texts.fr.js') });
}
