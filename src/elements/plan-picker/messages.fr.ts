import type { Translation } from '../../client/i18n.js';
import type { planTexts } from './messages.js';

// The French of <plan-picker>'s texts, loaded when a page first shows one of them in French
// (messages.ts holds the English and says what each text is for).
export default {
  'plan.title': 'Offres',
  'plan.current': 'Offre actuelle',
  'plan.current.pending': 'En attente de finalisation',
  'plan.choose': 'Passer à {title}',
  'plan.subscribe': 'S’abonner à {title}',
  'plan.contact': 'Nous contacter',
  'plan.on-request': 'Sur demande',
  'plan.prepared': 'Une offre sur mesure préparée pour vous',
  'plan.taxes.included': 'Prix toutes taxes comprises.',
  'plan.taxes.excluded': 'Prix hors taxes\u00a0: les taxes s’ajoutent sur la facture.',
  'plan.discount': 'Votre remise s’applique\u00a0: {name}.',
  'plan.discount.list-price': 'Prix catalogue {price}, avant votre remise\u00a0: {name}.',
  'plan.at-use': 'À votre usage actuel\u00a0: le prix catalogue de {price} plus {extras}.',
  'plan.at-use.discounted':
    'À votre usage actuel\u00a0: le prix catalogue de {price} plus {extras}, moins {off} pour votre remise ({name}), soit {total}.',
  'plan.extra': '{label}\u00a0: {count} en supplément, {price}',
  'plan.extra.add-on': '{label} en option, {price}',
  // Each value follows a feature's name and a colon: no capital, and words that agree with any
  // name ("Sièges\u00a0: sans limite").
  'plan.feature.value': '{title}\u00a0: {value}',
  'plan.feature.included': 'inclus',
  'plan.feature.not-included': 'non inclus',
  'plan.feature.unlimited': 'sans limite',
  'plan.feature.add-on': 'en option, {price}',
  'plan.pending': 'Votre abonnement attend d’être finalisé.',
  'plan.pending.action': 'Finaliser votre abonnement',
  'plan.suspended': 'Votre abonnement est suspendu. Réactivez-le avant de changer d’offre.',
  'plan.suspended.payment-method':
    'Votre abonnement est suspendu\u00a0: votre moyen de paiement ne fonctionne plus. Mettez-le à jour, puis réactivez votre abonnement avant de changer d’offre.',
  'plan.suspended.capping':
    'Votre abonnement est suspendu\u00a0: des factures sont en retard. Payez-les, puis réactivez-le avant de changer d’offre.',
  'plan.none': 'Pas encore d’offre. Choisissez-en une pour vous abonner.',
  'plan.empty': 'Aucune offre n’est disponible.',
  'plan.quoting': 'Calcul du prix…',
  'plan.dialog.title': 'Passer à {title}\u202f?',
  'plan.dialog.downgrade': 'Rétrograder vers {title}\u202f?',
  'plan.dialog.loses': 'Avec {title}, vous perdez {features}.',
  'plan.dialog.feature-name': '«\u202f{name}\u202f»',
  'plan.dialog.above-card':
    'Plus que les {price} de {title}\u00a0: il compte aussi votre usage au-delà de ce que {title} inclut.',
  'plan.dialog.above-card.extras':
    'Plus que les {price} de {title}\u00a0: ce prix comprend {extras}.',
  'plan.dialog.above-card.discounted':
    'Le prix catalogue de {title}, {price}, plus {extras}, moins {off} pour votre remise ({name}), soit {total}.',
  'plan.dialog.instead': '{price} au lieu de {current}',
  'plan.scheduled': 'Votre offre passe à {title} le {date}.',
  'plan.scheduled.starts': 'Commence le {date}',
  'plan.keep': 'Garder {title}',
  'plan.dialog.replaces': 'Ce changement remplace votre passage à {title} prévu le {date}.',
  'plan.dialog.keep': 'Garder {title}\u202f?',
  'plan.dialog.keep-price': 'Votre prix récurrent reste',
  'plan.dialog.effective': 'Prend effet le {date}.',
  'plan.dialog.from': 'Nouveau prix récurrent à partir du {date}',
  'plan.dialog.due-now': 'À payer maintenant',
  'plan.dialog.confirm': 'Changer maintenant',
  'plan.dialog.confirm.pay': 'Payer {amount} et changer',
  'plan.dialog.confirm.later': 'Changer le {date}',
  'plan.dialog.keeps':
    '{label}\u00a0: vos {used} restent\u202f; {title} en inclut {included}, le reste est facturé en supplément.',
  'plan.dialog.drops':
    '{label}\u00a0: {title} n’en inclut pas. Vos {used} restent jusqu’au {date}\u202f; ensuite votre offre n’en a plus, et les personnes qui les utilisent les perdent.',
  'plan.dialog.drops.now':
    '{label}\u00a0: {title} n’en inclut pas\u202f; dès maintenant votre offre n’en a plus (vous en avez {used}), et les personnes qui les utilisent les perdent.',
  'plan.dialog.metered.capped':
    '{label}\u00a0: {title} en inclut {included} et s’arrête à {max}\u202f; vous en avez utilisé {used} sur cette période.',
  'plan.dialog.metered.over-cap':
    '{label}\u00a0: {title} s’arrête à {max} et vous en avez utilisé {used} sur cette période\u00a0: toute utilisation supplémentaire y est refusée.',
  'plan.dialog.metered':
    '{label}\u00a0: vous en avez utilisé {used} sur cette période\u202f; {title} en inclut {included}, le reste à {price} l’unité.',
  'plan.dialog.add-on.available':
    '{label}\u00a0: {title} le propose en option, {price}\u202f; ajoutez-le après le changement pour le garder.',
  'plan.dialog.add-on.kept': '{label}\u00a0: gardé en option, {price}.',
  'plan.dialog.add-on.included': '{label}\u00a0: inclus dans {title}.',
  'plan.dialog.cancel': 'Annuler',
  'plan.applying': 'Changement d’offre en cours…',
  'plan.resuming': 'Vérification de votre dernier changement…',
  'plan.success.now': 'C’est fait. Votre offre est maintenant {title}.',
  'plan.success.kept': 'C’est fait. Vous restez sur {title}.',
  'plan.success.later': 'C’est fait. Votre passage à {title} est programmé.',
  'plan.outcome-unknown':
    'Nous n’avons pas pu confirmer le changement d’offre. Réessayez\u00a0: il ne sera jamais facturé deux fois.',
  'error.offer-on-request':
    'Cette offre est vendue sur demande. Contactez-nous pour en bénéficier.',
  'error.already-on-offer': 'Vous avez déjà cette offre.',
} satisfies Translation<typeof planTexts>;
