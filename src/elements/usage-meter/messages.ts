import type { TextTable, TextsOf } from '../../client/i18n.js';

// The texts only <usage-meter> shows, in English; messages.fr.ts holds their French. Shared
// wording (errors, remedies, retry) is the client's (client/shared-texts.ts).
declare module '../../client/i18n.js' {
  interface BillingMessages extends TextsOf<typeof meterTexts> {}
}

/** The built-in texts of <usage-meter>: registered when its class is defined. */
export const meterTexts = {
  'meter.of': '{used} of {total}',
  'meter.value-text': '{used} of {total} {label}',
  'meter.unlimited': 'Unlimited',
  'meter.unlimited-used': '{used} used',
  'meter.unlimited-value-text': '{used} {label} used, unlimited',
  'meter.resets': 'Resets on {date}',
  'meter.included': 'Included',
  'meter.not-included': 'Not included',
  'meter.disabled': 'Included, turned off',
  // A suspended subscription gives no rights: the plan's feature waits for it to run again.
  'meter.paused': 'Included, paused while suspended',
  // A meter covered by its region's "Choose a plan to get started": read by screen readers
  // beside its dash.
  'meter.no-plan': 'No plan yet',
  // The label leads, followed by a colon: no verb to agree with a plural title ("Seats is").
  'meter.not-in-plan': '{label}: not included in your plan.',
  'meter.level.warning': '{percent} used',
  'meter.level.critical': 'Limit reached',
  'meter.level.over': 'Over the limit',
  'meter.extra-value-text': '{used} {label}: {total} included, {extra} extra',
  'meter.announce.warning': '{label}: {percent} used, close to the limit.',
  'meter.announce.critical': '{label}: limit reached.',
  'meter.announce.over': '{label}: over the limit.',
  'meter.announce.extra': '{label}: {extra} extra beyond your plan.',
  'meter.announce.normal': '{label}: back under the warning level.',
  'meter.empty': 'Your plan has no features to show.',
  'meter.list': 'Plan usage',
  'meter.loading': 'Loading usage…',
  'meter.split': '{used} · {total} included + {extra} extra',
  'meter.included-count': '{total} included',
  // A Limitation (seats) back within what the plan includes, after it was full or beyond.
  'meter.announce.within': '{label}: {used} of {total} included in use.',
  'meter.announce.full': '{label}: all {total} included in use.',
} as const satisfies TextTable;
