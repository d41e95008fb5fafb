import type { BillingMessages, Locale } from '../../client/i18n.js';

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

/** Built-in texts; the element registers them when its class is defined. */
export const meterMessages: Record<Locale, Record<MeterMessageKey, string>> = {
  en: {
    'meter.of': '{used} of {total}',
    'meter.valueText': '{used} of {total} {label}',
    'meter.unlimited': 'Unlimited',
    'meter.unlimitedUsed': '{used} used',
    'meter.unlimitedValueText': '{used} {label} used, unlimited',
    'meter.resets': 'Resets on {date}',
    'meter.included': 'Included',
    'meter.notIncluded': 'Not included',
    'meter.disabled': 'Included, turned off',
    'meter.notInPlan': '{label} is not part of your plan.',
    'meter.level.warning': '{percent} used',
    'meter.level.critical': 'Limit reached',
    'meter.level.over': 'Over the limit',
    'meter.level.extra': '{extra} extra',
    'meter.extraValueText': '{used} {label}: {total} included, {extra} extra',
    'meter.announce.warning': '{label}: {percent} used, close to the limit.',
    'meter.announce.critical': '{label}: limit reached.',
    'meter.announce.over': '{label}: over the limit.',
    'meter.announce.extra': '{label}: {extra} extra beyond your plan.',
    'meter.announce.normal': '{label}: back under the warning level.',
    'meter.empty': 'Your plan has no features to show.',
    'meter.list': 'Plan usage',
    'meter.loading': 'Loading usage…',
  },
  fr: {
    'meter.of': '{used} sur {total}',
    'meter.valueText': '{used} sur {total} {label}',
    'meter.unlimited': 'Illimité',
    'meter.unlimitedUsed': '{used} utilisés',
    'meter.unlimitedValueText': '{label} : {used} utilisés, illimité',
    'meter.resets': 'Remise à zéro le {date}',
    'meter.included': 'Inclus',
    'meter.notIncluded': 'Non inclus',
    'meter.disabled': 'Inclus, désactivé',
    'meter.notInPlan': '{label} ne fait pas partie de votre offre.',
    'meter.level.warning': '{percent} utilisés',
    'meter.level.critical': 'Limite atteinte',
    'meter.level.over': 'Limite dépassée',
    'meter.level.extra': '{extra} en supplément',
    'meter.extraValueText': '{used} {label} : {total} inclus, {extra} en supplément',
    'meter.announce.warning': '{label} : {percent} utilisés, limite proche.',
    'meter.announce.critical': '{label} : limite atteinte.',
    'meter.announce.over': '{label} : limite dépassée.',
    'meter.announce.extra': '{label} : {extra} en supplément de votre offre.',
    'meter.announce.normal': '{label} : de nouveau sous le seuil d’alerte.',
    'meter.empty': 'Votre offre ne comporte aucune fonctionnalité à afficher.',
    'meter.list': 'Utilisation de l’offre',
    'meter.loading': 'Chargement de l’utilisation…',
  },
};
