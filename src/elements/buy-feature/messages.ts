import type { TextTable, TextsOf } from '../../client/i18n.js';

// The texts only <buy-feature> shows, in English, with the one refusal only a purchase meets (a
// quantity the service will not sell: `error.validation`); messages.fr.ts holds their French.
// Shared wording (errors, remedies, retry) comes from the client's table, so every element
// names a refusal and its remedy alike.
declare module '../../client/i18n.js' {
  interface BillingMessages extends TextsOf<typeof buyTexts> {
    /**
     * A feature's unit words in one language, given by the page (`configureBilling({ messages:
     * { fr: { 'unit.seats.one': 'siège', 'unit.seats.other': 'sièges' } } })`): they win over
     * the `label` and `label-one` attributes in that language. No built-in text.
     */
    [unit: `unit.${string}.${'one' | 'other'}`]: string;
  }
}

/** The built-in texts of <buy-feature>: registered when its class is defined. */
export const buyTexts = {
  'buy.quantity': 'Quantity',
  'buy.range': 'From {min} to {max}',
  'buy.invalid': 'Choose a whole number from {min} to {max}.',
  'buy.invalid.step': 'Choose a quantity from {min} to {max}, in steps of {step}.',
  'buy.invalid.min': 'Choose a whole number, {min} or more.',
  'buy.invalid.min-step': 'Choose a quantity of {min} or more, in steps of {step}.',
  'buy.empty': 'Enter a quantity to see its price.',
  'buy.buy': 'Buy',
  // The Buy button's accessible name: what it buys ("Buy 3 seats"), the visible "Buy" first.
  'buy.buy.counted': 'Buy {quantity} {label}',
  'buy.buy.named': 'Buy {quantity} · {label}',
  'buy.calculating': 'Calculating the price…',
  'buy.price.due-now': 'Due now',
  'buy.price.no-charge': 'Nothing to pay now',
  'buy.price.credit': 'Credited now',
  'buy.price.next': 'New recurring price',
  'buy.price.unchanged': 'Recurring price unchanged',
  // Under the dialog's prices, when the business said whether they include tax (its proxy's
  // `taxes` option); nothing is said otherwise.
  'buy.taxes.included': 'Prices include tax.',
  'buy.taxes.excluded': 'Prices exclude tax: it is added on the invoice.',
  // A price the service cannot quote before a payment method is added: the plan's, per unit.
  'buy.unit-price': '{label}: {price} each.',
  'buy.unit-price.beyond': '{label}: {price} each beyond the {included} included.',
  'buy.dialog.title': 'Confirm your purchase',
  // {label} agrees with {quantity}: `label-one` for one, `label` for several (Intl.PluralRules).
  'buy.dialog.summary': 'Add {quantity} {label}',
  // Without a singular, a sentence that reads for any number, {label} the feature's title.
  'buy.dialog.summary.named': '{label}: {quantity} more',
  'buy.dialog.split': '{included} included · {extra} extra',
  // The confirm button says what happens: the amount paid now, else the change itself (the
  // summary's sentence, "Add 3 seats").
  'buy.dialog.confirm.pay': 'Pay {amount} and add',
  // Under the price of a purchase or an add-on while the subscription waits for a plan change
  // at the period's end ({plan}: "Starter"; {date}: "December 1, 2026"): the recurring price
  // shown is the current plan's.
  'buy.dialog.scheduled':
    'Your plan changes to {plan} on {date}: this recurring price applies until then.',
  'buy.dialog.scheduled.lacks': '{label}: not included in {plan}.',
  'buy.dialog.cancel': 'Cancel',
  'buy.applying': 'Applying your purchase…',
  'buy.success': 'Done. You now have {quantity} {label}.',
  'buy.success.named': 'Done. {label}: {quantity} in all.',
  // Added after the success sentence when the amount charged may differ from the one confirmed.
  'buy.success.unconfirmed': 'The price may differ: see your invoices.',
  'buy.resuming': 'Checking your last purchase…',
  'buy.outcome-unknown':
    'We could not confirm whether your purchase went through. Try again: it will never be charged twice.',
  'buy.outcome-unverifiable':
    'We could not confirm whether your purchase went through. Check your usage before buying again.',
  // One text per cause of a refused quantity (refusal.ts tells them apart).
  'buy.refused.too-many': 'Your plan does not allow that many. Choose a smaller quantity.',
  // {max}: the proxy's limit per purchase, from its refusal ("10,000").
  'buy.refused.at-once.max': 'You can buy up to {max} at once. Choose a smaller quantity.',
  'buy.refused.at-once': 'That is more than can be bought in one go. Choose a smaller quantity.',
  'buy.refused.setup': 'Buying is unavailable on this page.',
  // A plan with unlimited access: nothing to buy ({label} the feature's title, "Seats").
  'buy.unlimited': '{label}: unlimited in your plan, nothing to buy.',
  // The add-on mode, on an on/off feature; {label} is the feature's name ("Priority support").
  'buy.add-on.add': 'Add {label}',
  'buy.add-on.remove': 'Remove {label}',
  // Where it stands, in the meters' and the gate's wording: "{label}: state." ("Seats: not
  // included in your plan."), so that a card of several elements reads as one list.
  'buy.add-on.owned': '{label}: added to your plan as an add-on.',
  'buy.add-on.included': '{label}: included in your plan.',
  'buy.add-on.elsewhere': '{label}: not sold separately, included in the {plan} plan.',
  'buy.add-on.elsewhere.unnamed': '{label}: not sold separately, included in another plan.',
  'buy.add-on.see-plans': 'See plans',
  'buy.add-on.dialog.add': 'Add {label}?',
  'buy.add-on.dialog.remove': 'Remove {label}?',
  // Removing ends the add-on at once and refunds nothing of what was billed for this period.
  'buy.add-on.dialog.remove-kept':
    '{label} ends now, and what was already billed for it is not refunded.',
  'buy.add-on.adding': 'Adding {label}…',
  'buy.add-on.removing': 'Removing {label}…',
  // The panel says at once what is owned (buy.add-on.owned): not said twice.
  'buy.add-on.added': 'Done.',
  'buy.add-on.removed': 'Done. {label}: removed from your plan.',
  'buy.add-on.outcome-unknown':
    'We could not confirm whether your change went through. Try again: it will never be charged twice.',
  'error.add-on-already-on': 'This add-on is already in your plan.',
  'error.add-on-already-off': 'This add-on was already removed.',
  // A decrease (`allow-decrease`): {label} agrees with {quantity} as in 'buy.dialog.summary'.
  'buy.decrease.remove': 'Remove {quantity} {label}',
  'buy.decrease.remove.named': 'Remove {quantity} · {label}',
  'buy.decrease.remove.any': 'Remove',
  // {label} the feature's title ("Seats"), {current} the quantity now, {removable} how many can go.
  'buy.decrease.room': '{label}: you have {current}, and can remove up to {removable}.',
  // {action} is the confirm button's own words ("Remove 2 seats").
  'buy.decrease.dialog.title': '{action}?',
  // The headline of a decrease: what changes now, and that nothing billed is given back (worded
  // as an add-on's removal).
  'buy.decrease.dialog.effect':
    '{label}: from {from} to {to}, starting now. What was already billed for this period is not refunded.',
  'buy.decrease.dialog.effect.credited': '{label}: from {from} to {to}, starting now.',
  'buy.decrease.applying': 'Removing…',
  'buy.decrease.outcome-unknown':
    'We could not confirm whether the change went through. Try again: it will never be applied twice.',
  // The quantity moved elsewhere (another tab) since the decrease was shown.
  'error.not-a-decrease':
    'The quantity changed meanwhile, so nothing is left to remove. Check it and try again.',
  'error.below-in-use': 'That is fewer than are in use. Free some first.',
  'error.below-included': 'That is fewer than your plan includes.',
  'error.validation': 'This quantity cannot be bought. Choose another one.',
  // Beside a state whose remedy another element of the page offers (it says the whole story):
  // what this control waits for, in a few words.
  'buy.waits.plans': 'Not included in your plan.',
  'buy.waits.pay-invoice': 'Paused until the overdue invoices are paid.',
  'buy.waits.restart': 'Paused while your subscription is suspended.',
  'buy.waits.subscribe': 'Available once your subscription is complete.',
  'buy.waits.register': 'Needs a payment method.',
  'buy.waits.register.update': 'Needs a working payment method.',
  'buy.waits.none': 'No plan yet.',
  // The proxy could not be reached at all; any other failure to retry says its own `error.<code>`.
  'buy.waits.retry': 'Billing could not be reached.',
  'buy.waits.reload': 'Another account has signed in since this page opened.',
} as const satisfies TextTable;
