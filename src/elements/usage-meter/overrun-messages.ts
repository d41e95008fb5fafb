import type { TextTable, TextsOf } from '../../client/i18n.js';

// The texts of a meter whose use is at or past what the plan includes (overrun.ts), in English;
// overrun-messages.fr.ts holds their French. Registered when a page first shows such a meter, so
// a page whose meters are within their plan loads neither.
declare module '../../client/i18n.js' {
  interface BillingMessages extends TextsOf<typeof overrunTexts> {}
}

/** The built-in texts of an over-limit meter: registered when overrun.ts is imported. */
export const overrunTexts = {
  // A consumption past what the plan includes ({extra}: "9,200"), when the plan's terms give no
  // price for the units beyond it.
  'meter.overrun': '{extra} beyond your plan.',
  // The same with its cost so far ({amount}: "$92.00") at the plan's price of each unit beyond
  // what it includes ({price}: "$0.01"), as the service bills it.
  'meter.overrun.cost': '{extra} beyond your plan: {amount} so far, at {price} each.',
  // The same once the customer's discount is taken off ({name}: the service's title of it, "20%
  // off everything"; {amount} what is charged after it).
  'meter.overrun.cost.discounted':
    '{extra} beyond your plan: {amount} so far, at {price} each less your discount ({name}).',
  // A discount whose share or charges the proxy does not tell: the list price, said as such.
  'meter.overrun.cost.before-discount':
    '{extra} beyond your plan: {amount} so far, at {price} each before your discount ({name}).',
  // The plan suggested, and why: what it includes of the feature ({included}: "100,000"), for a
  // use at the cap of the customer's plan.
  'meter.overrun.plan.included': '{plan} includes {included}.',
  'meter.overrun.plan.unlimited': '{plan} has no limit.',
  // The same for a use the service still accepts, suggested only once the plan costs less than
  // the customer's ({current}: "Pro") with the use beyond it.
  'meter.overrun.plan.included.cheaper':
    '{plan} includes {included}: at this use, it costs less than {current}.',
  'meter.overrun.plan.unlimited.cheaper':
    '{plan} has no limit: at this use, it costs less than {current}.',
  // A feature the plan caps ({max}: "5,000"), its use at the cap: the service refuses more.
  'meter.capped': 'Your plan stops at {max}: further use is refused.',
  // The same before the cap is reached ({left}: "100", what is left before it).
  'meter.capped.ahead': 'Your plan stops at {max}: {left} more, then further use is refused.',
} as const satisfies TextTable;
