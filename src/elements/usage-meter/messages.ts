import type { BillingMessages } from '../../client/i18n.js';

// The texts only <usage-meter> shows; shared wording (errors, remedies, retry) is the client's.
declare module '../../client/i18n.js' {
  interface BillingMessages {
    'meter.of': string;
    'meter.value-text': string;
    'meter.unlimited': string;
    'meter.unlimited-used': string;
    'meter.unlimited-value-text': string;
    'meter.resets': string;
    'meter.included': string;
    'meter.not-included': string;
    'meter.disabled': string;
    'meter.paused': string;
    'meter.no-plan': string;
    'meter.not-in-plan': string;
    'meter.not-in-plan.suggest': string;
    'meter.level.warning': string;
    'meter.level.critical': string;
    'meter.level.over': string;
    'meter.extra-value-text': string;
    'meter.announce.warning': string;
    'meter.announce.critical': string;
    'meter.announce.over': string;
    'meter.announce.extra': string;
    'meter.announce.normal': string;
    'meter.announce.within': string;
    'meter.empty': string;
    'meter.list': string;
    'meter.loading': string;
    'meter.split': string;
    'meter.included-count': string;
    'meter.announce.full': string;
  }
}

type MeterMessageKey = Extract<keyof BillingMessages, `meter.${string}`>;
type MeterTextName = MeterMessageKey extends `meter.${infer Name}` ? Name : never;

/**
 * Built-in texts, `[English, French]`, written without their common `meter.` prefix: the element
 * registers them, prefixed, when its class is defined.
 */
export const meterTexts: Record<MeterTextName, readonly [en: string, fr: string]> = {
  of: ['{used} of {total}', '{used} sur {total}'],
  'value-text': ['{used} of {total} {label}', '{used} sur {total} {label}'],
  unlimited: ['Unlimited', 'Illimité'],
  'unlimited-used': ['{used} used', '{used} utilisés'],
  'unlimited-value-text': [
    '{used} {label} used, unlimited',
    '{label}\u00a0: {used} utilisés, illimité',
  ],
  resets: ['Resets on {date}', 'Remise à zéro le {date}'],
  included: ['Included', 'Inclus'],
  'not-included': ['Not included', 'Non inclus'],
  disabled: ['Included, turned off', 'Inclus, désactivé'],
  // A suspended subscription gives no rights: the plan's feature waits for it to run again.
  paused: ['Included, paused while suspended', 'Inclus, en pause (abonnement suspendu)'],
  // A meter covered by its region's "Choose a plan to get started": the same state, briefly.
  'no-plan': ['No plan yet', 'Pas encore d’offre'],
  // The label leads, followed by a colon: no verb to agree with a plural title ("Seats is").
  'not-in-plan': [
    '{label}: not included in your plan.',
    '{label}\u00a0: non inclus dans votre offre.',
  ],
  // With the least expensive plan that includes it ({plan}: "Pro").
  'not-in-plan.suggest': [
    '{label}: not included in your plan; {plan} includes it.',
    '{label}\u00a0: non inclus dans votre offre\u202f; l’offre {plan} l’inclut.',
  ],
  'level.warning': ['{percent} used', '{percent} utilisés'],
  'level.critical': ['Limit reached', 'Limite atteinte'],
  'level.over': ['Over the limit', 'Limite dépassée'],
  'extra-value-text': [
    '{used} {label}: {total} included, {extra} extra',
    '{used} {label}\u00a0: {total} inclus, {extra} en supplément',
  ],
  'announce.warning': [
    '{label}: {percent} used, close to the limit.',
    '{label}\u00a0: {percent} utilisés, limite proche.',
  ],
  'announce.critical': ['{label}: limit reached.', '{label}\u00a0: limite atteinte.'],
  'announce.over': ['{label}: over the limit.', '{label}\u00a0: limite dépassée.'],
  'announce.extra': [
    '{label}: {extra} extra beyond your plan.',
    '{label}\u00a0: {extra} en supplément de votre offre.',
  ],
  'announce.normal': [
    '{label}: back under the warning level.',
    '{label}\u00a0: de nouveau sous le seuil d’alerte.',
  ],
  empty: [
    'Your plan has no features to show.',
    'Votre offre ne comporte aucune fonctionnalité à afficher.',
  ],
  list: ['Plan usage', 'Utilisation de l’offre'],
  loading: ['Loading usage…', 'Chargement de l’utilisation…'],
  split: [
    '{used} · {total} included + {extra} extra',
    '{used} · {total} inclus + {extra} en supplément',
  ],
  'included-count': ['{total} included', '{total} inclus'],
  // A Limitation (seats) back within what the plan includes, after it was full or beyond.
  'announce.within': [
    '{label}: {used} of {total} included in use.',
    '{label}\u00a0: {used} sur {total} inclus utilisés.',
  ],
  'announce.full': [
    '{label}: all {total} included in use.',
    '{label}\u00a0: les {total} inclus sont utilisés.',
  ],
};
