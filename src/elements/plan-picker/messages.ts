import type { TextTable, TextsOf } from '../../client/i18n.js';

// The texts only <plan-picker> shows, in English, with the refusals only a plan change meets;
// messages.fr.ts holds their French. Shared wording (errors, remedies, retry) is the client's.
declare module '../../client/i18n.js' {
  interface BillingMessages extends TextsOf<typeof planTexts> {}
}

/** The built-in texts of <plan-picker>: registered when its class is defined. */
export const planTexts = {
  'plan.title': 'Plans',
  'plan.current': 'Current plan',
  // The plan of a subscription created but not completed yet (its checkout): not yet the customer's.
  'plan.current.pending': 'Waiting to be completed',
  // Neutral: whether a move lowers this customer's price (extras included) is the quote's to say.
  'plan.choose': 'Switch to {title}',
  'plan.subscribe': 'Subscribe to {title}',
  'plan.contact': 'Contact us',
  'plan.on-request': 'On request',
  // Under the title of a plan the business prepared for this customer: a custom subscription at
  // its own price and terms.
  'plan.prepared': 'A custom offer prepared for you',
  // Under the plans and the dialog's prices, when the business said whether prices include tax
  // (its proxy's `taxes` option); nothing is said otherwise.
  'plan.taxes.included': 'Prices include tax.',
  'plan.taxes.excluded': 'Prices exclude tax: it is added on the invoice.',
  // The subscription's discount, which moves with it to another plan; {name} is the service's
  // title of it ("20% off everything").
  'plan.discount': 'Your discount applies: {name}.',
  // Beneath the price a card shows after the discounts: the plan's list price ({price}:
  // "$49.00 / month") and the discounts' names.
  'plan.discount.list-price': 'List price {price}, before your discount: {name}.',
  // A card's price at the customer's current use, above the plan's list price ({price}), and
  // what adds to it ({extras}: "Seats: 37 extra, $370.00 / month and Projects: 7 extra, …").
  'plan.at-use': 'At your current use: the {price} list price plus {extras}.',
  // The same with the customer's discount, in the order the sum is counted: {off} what the
  // discount ({name}) takes off, {total} the price the card shows.
  'plan.at-use.discounted':
    'At your current use: the {price} list price plus {extras}, less {off} for your discount ({name}), so {total}.',
  'plan.extra': '{label}: {count} extra, {price}',
  'plan.extra.add-on': '{label} add-on, {price}',
  'plan.feature.value': '{title}: {value}',
  'plan.feature.included': 'Included',
  'plan.feature.not-included': 'Not included',
  'plan.feature.unlimited': 'Unlimited',
  'plan.feature.add-on': 'Add-on, {price}',
  'plan.pending': 'Your subscription is waiting to be completed.',
  'plan.pending.action': 'Complete your subscription',
  'plan.suspended': 'Your subscription is suspended. Restart it before changing plan.',
  // Overdue invoices block a restart: paying them is the first step that works.
  'plan.suspended.payment-method':
    'Your subscription is suspended: your payment method no longer works. Update it, then restart your subscription before changing plan.',
  'plan.suspended.capping':
    'Your subscription is suspended: invoices are overdue. Pay them, then restart it before changing plan.',
  'plan.none': 'No plan yet. Choose one to subscribe.',
  'plan.empty': 'No plans are available.',
  'plan.quoting': 'Calculating the price…',
  'plan.dialog.title': 'Switch to {title}?',
  // Only when the quote says the move lowers the recurring price and waits for the period end.
  'plan.dialog.downgrade': 'Downgrade to {title}?',
  // A downgrade's features the new plan lacks ({features}: "“Seats” and “Single sign-on”", each
  // name quoted with 'plan.dialog.feature-name', so that their capitals read as names).
  'plan.dialog.loses': 'On {title} you no longer have {features}.',
  'plan.dialog.feature-name': '“{name}”',
  // The new recurring price is above the card's ({price}: "$19 / month"): extras, add-ons.
  'plan.dialog.above-card':
    'More than the {price} of {title}: it also counts your use beyond what {title} includes.',
  // The same, naming what adds to it ({extras}, as on the card).
  'plan.dialog.above-card.extras': 'More than the {price} of {title}: it includes {extras}.',
  // The same with the customer's discount: the whole sum, as on the card.
  'plan.dialog.above-card.discounted':
    'The {price} list price of {title} plus {extras}, less {off} for your discount ({name}), so {total}.',
  // A new recurring price above the current one ({current}), compared.
  'plan.dialog.instead': '{price} instead of {current}',
  // A downgrade confirmed earlier waits for the end of the period: said, with the way back.
  'plan.scheduled': 'Your plan changes to {title} on {date}.',
  'plan.scheduled.starts': 'Starts on {date}',
  'plan.keep': 'Keep {title}',
  'plan.dialog.keep': 'Keep {title}?',
  // A change confirmed earlier for the period's end ({title} on {date}) that this one cancels.
  'plan.dialog.replaces': 'This replaces your change to {title} on {date}.',
  'plan.dialog.keep-price': 'Your recurring price stays',
  'plan.dialog.effective': 'Takes effect on {date}.',
  // A change that waits for the period's end and costs nothing now: its headline is the price
  // the customer will pay from that date, and what is due now comes under it.
  'plan.dialog.from': 'New recurring price from {date}',
  'plan.dialog.due-now': 'Due now',
  // The confirm button says what happens: paid and switched now, switched now for nothing, or
  // switched on a date.
  'plan.dialog.confirm': 'Switch now',
  // The dialog's action, short enough for one line of a 360px screen in either language (the
  // title names the plan; the price block, the date).
  'plan.dialog.confirm.pay': 'Pay {amount} and switch',
  'plan.dialog.confirm.later': 'Switch on {date}',
  // A downgrade's use beyond what the smaller plan includes is kept, and billed as extra.
  'plan.dialog.keeps':
    '{label}: your {used} stay; {title} includes {included}, the rest is billed as extra.',
  // A quantity in use that the new plan does not have: the subscription no longer has it from
  // the change's date ({date}), or at once; whoever uses one then no longer has it (the service
  // keeps only the new plan's features, whatever is in use).
  'plan.dialog.drops':
    '{label}: {title} does not include them. You keep your {used} until {date}; from then your plan has none, and the people using them lose them.',
  'plan.dialog.drops.now':
    '{label}: {title} does not include them; from now your plan has none (you have {used}), and the people using them lose them.',
  // A use counted each period (API calls) on a plan that includes less of it: what it includes,
  // its cap ({max}) and the use so far this period ({used}); past the cap already, refused; without
  // a cap, the price of each unit beyond ({price}).
  'plan.dialog.metered.capped':
    '{label}: {title} includes {included} and stops at {max}; you have used {used} this period.',
  'plan.dialog.metered.over-cap':
    '{label}: {title} stops at {max} and you have used {used} this period: further use is refused on it.',
  'plan.dialog.metered':
    '{label}: you have used {used} this period; {title} includes {included}, the rest at {price} each.',
  // A feature the current plan includes that the new one sells as an add-on: not carried over.
  'plan.dialog.add-on.available':
    '{label}: {title} sells it as an add-on, {price}; add it after the change to keep it.',
  // An add-on bought on the current plan, on the smaller plan.
  'plan.dialog.add-on.kept': '{label}: kept as an add-on, {price}.',
  'plan.dialog.add-on.included': '{label}: included in {title}.',
  'plan.dialog.cancel': 'Cancel',
  'plan.applying': 'Changing your plan…',
  'plan.resuming': 'Checking your last plan change…',
  'plan.success.now': 'Done. You are now on {title}.',
  'plan.success.kept': 'Done. You stay on {title}.',
  // The notice above it says when (plan.scheduled): the date is not said twice.
  'plan.success.later': 'Done. Your change to {title} is scheduled.',
  'plan.outcome-unknown':
    'We could not confirm whether your plan changed. Try again: it will never be charged twice.',
  'error.offer-on-request': 'This plan is sold on request. Contact us to move to it.',
  'error.already-on-offer': 'You are already on this plan.',
} as const satisfies TextTable;
