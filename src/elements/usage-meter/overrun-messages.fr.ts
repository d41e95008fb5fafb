import type { Translation } from '../../client/i18n.js';
import type { overrunTexts } from './overrun-messages.js';

// The French of an over-limit meter's texts, loaded when a page first shows one of them in
// French (overrun-messages.ts holds the English and says what each text is for).
export default {
  'meter.overrun': '{extra} au-delà de votre offre.',
  'meter.overrun.cost':
    '{extra} au-delà de votre offre\u00a0: {amount} à ce jour, à {price} l’unité.',
  'meter.overrun.cost.discounted':
    '{extra} au-delà de votre offre\u00a0: {amount} à ce jour, à {price} l’unité moins votre remise ({name}).',
  'meter.overrun.cost.before-discount':
    '{extra} au-delà de votre offre\u00a0: {amount} à ce jour, à {price} l’unité avant votre remise ({name}).',
  'meter.overrun.plan.included': '{plan} inclut {included}.',
  'meter.overrun.plan.unlimited': '{plan} est sans limite.',
  'meter.overrun.plan.included.cheaper':
    '{plan} inclut {included}\u00a0: à cette utilisation, {plan} revient moins cher que {current}.',
  'meter.overrun.plan.unlimited.cheaper':
    '{plan} est sans limite\u00a0: à cette utilisation, {plan} revient moins cher que {current}.',
  'meter.capped':
    'Votre offre s’arrête à {max}\u00a0: toute utilisation supplémentaire est refusée.',
  'meter.capped.ahead':
    'Votre offre s’arrête à {max}\u00a0: encore {left}, puis toute utilisation supplémentaire est refusée.',
} satisfies Translation<typeof overrunTexts>;
