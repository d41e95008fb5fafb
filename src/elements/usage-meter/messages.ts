import type { BillingMessages, BuiltInTexts } from '../../client/i18n.js';

// The texts only <usage-meter> shows; shared wording (errors, remedies, retry) is the client's.
declare module '../../client/i18n.js' {
  interface BillingMessages {
    'meter.of': string;
    'meter.valueText': string;
    'meter.unlimited': string;
    'meter.unlimitedUsed': string;
    'meter.unlimitedValueText': string;
    'meter.resets': string;
    'meter.included': string;
    'meter.notIncluded': string;
    'meter.disabled': string;
    'meter.notInPlan': string;
    'meter.level.warning': string;
    'meter.level.critical': string;
    'meter.level.over': string;
    'meter.level.extra': string;
    'meter.extraValueText': string;
    'meter.announce.warning': string;
    'meter.announce.critical': string;
    'meter.announce.over': string;
    'meter.announce.extra': string;
    'meter.announce.normal': string;
    'meter.empty': string;
    'meter.list': string;
    'meter.loading': string;
  }
}

type MeterMessageKey = Extract<keyof BillingMessages, `meter.${string}`>;

/** Built-in texts, `[English, French]`; the element registers them when its class is defined. */
export const meterTexts: BuiltInTexts<MeterMessageKey> = {
  'meter.of': ['{used} of {total}', '{used} sur {total}'],
  'meter.valueText': ['{used} of {total} {label}', '{used} sur {total} {label}'],
  'meter.unlimited': ['Unlimited', 'Illimité'],
  'meter.unlimitedUsed': ['{used} used', '{used} utilisés'],
  'meter.unlimitedValueText': [
    '{used} {label} used, unlimited',
    '{label} : {used} utilisés, illimité',
  ],
  'meter.resets': ['Resets on {date}', 'Remise à zéro le {date}'],
  'meter.included': ['Included', 'Inclus'],
  'meter.notIncluded': ['Not included', 'Non inclus'],
  'meter.disabled': ['Included, turned off', 'Inclus, désactivé'],
  'meter.notInPlan': [
    '{label} is not part of your plan.',
    '{label} ne fait pas partie de votre offre.',
  ],
  'meter.level.warning': ['{percent} used', '{percent} utilisés'],
  'meter.level.critical': ['Limit reached', 'Limite atteinte'],
  'meter.level.over': ['Over the limit', 'Limite dépassée'],
  'meter.level.extra': ['{extra} extra', '{extra} en supplément'],
  'meter.extraValueText': [
    '{used} {label}: {total} included, {extra} extra',
    '{used} {label} : {total} inclus, {extra} en supplément',
  ],
  'meter.announce.warning': [
    '{label}: {percent} used, close to the limit.',
    '{label} : {percent} utilisés, limite proche.',
  ],
  'meter.announce.critical': ['{label}: limit reached.', '{label} : limite atteinte.'],
  'meter.announce.over': ['{label}: over the limit.', '{label} : limite dépassée.'],
  'meter.announce.extra': [
    '{label}: {extra} extra beyond your plan.',
    '{label} : {extra} en supplément de votre offre.',
  ],
  'meter.announce.normal': [
    '{label}: back under the warning level.',
    '{label} : de nouveau sous le seuil d’alerte.',
  ],
  'meter.empty': [
    'Your plan has no features to show.',
    'Votre offre ne comporte aucune fonctionnalité à afficher.',
  ],
  'meter.list': ['Plan usage', 'Utilisation de l’offre'],
  'meter.loading': ['Loading usage…', 'Chargement de l’utilisation…'],
};
