import type { Translation } from '../../client/i18n.js';
import type { meterTexts } from './messages.js';

// The French of <usage-meter>'s texts, loaded when a page first shows one of them in French
// (messages.ts holds the English and says what each text is for).
export default {
  'meter.of': '{used} sur {total}',
  'meter.value-text': '{used} sur {total} {label}',
  'meter.unlimited': 'Illimité',
  'meter.unlimited-used': '{used} utilisés',
  'meter.unlimited-value-text': '{label}\u00a0: {used} utilisés, illimité',
  'meter.resets': 'Remise à zéro le {date}',
  'meter.included': 'Inclus',
  'meter.not-included': 'Non inclus',
  'meter.disabled': 'Inclus, désactivé',
  'meter.paused': 'Inclus, en pause (abonnement suspendu)',
  'meter.no-plan': 'Pas encore d’offre',
  'meter.not-in-plan': '{label}\u00a0: non inclus dans votre offre.',
  'meter.not-in-plan.suggest':
    '{label}\u00a0: non inclus dans votre offre\u202f; l’offre {plan} l’inclut.',
  'meter.level.warning': '{percent} utilisés',
  'meter.level.critical': 'Limite atteinte',
  'meter.level.over': 'Limite dépassée',
  'meter.extra-value-text': '{used} {label}\u00a0: {total} inclus, {extra} en supplément',
  'meter.announce.warning': '{label}\u00a0: {percent} utilisés, limite proche.',
  'meter.announce.critical': '{label}\u00a0: limite atteinte.',
  'meter.announce.over': '{label}\u00a0: limite dépassée.',
  'meter.announce.extra': '{label}\u00a0: {extra} en supplément de votre offre.',
  'meter.announce.normal': '{label}\u00a0: de nouveau sous le seuil d’alerte.',
  'meter.empty': 'Votre offre ne comporte aucune fonctionnalité à afficher.',
  'meter.list': 'Utilisation de l’offre',
  'meter.loading': 'Chargement de l’utilisation…',
  'meter.split': '{used} · {total} inclus + {extra} en supplément',
  'meter.included-count': '{total} inclus',
  'meter.announce.within': '{label}\u00a0: {used} sur {total} inclus utilisés.',
  'meter.announce.full': '{label}\u00a0: les {total} inclus sont utilisés.',
} satisfies Translation<typeof meterTexts>;
