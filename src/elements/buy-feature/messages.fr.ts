import type { Translation } from '../../client/i18n.js';
import type { buyTexts } from './messages.js';

// The French of <buy-feature>'s texts, loaded when a page first shows one of them in French
// (messages.ts holds the English and says what each text is for).
export default {
  'buy.quantity': 'Quantité',
  'buy.range': 'De {min} à {max}',
  'buy.invalid': 'Choisissez un nombre entier de {min} à {max}.',
  'buy.invalid.step': 'Choisissez une quantité de {min} à {max}, par pas de {step}.',
  'buy.invalid.min': 'Choisissez un nombre entier, {min} ou plus.',
  'buy.invalid.min-step': 'Choisissez une quantité de {min} ou plus, par pas de {step}.',
  'buy.empty': 'Saisissez une quantité pour voir son prix.',
  'buy.buy': 'Acheter',
  'buy.buy.counted': 'Acheter {quantity} {label}',
  'buy.buy.named': 'Acheter {quantity} · {label}',
  'buy.calculating': 'Calcul du prix…',
  'buy.price.due-now': 'À payer maintenant',
  'buy.price.no-charge': 'Rien à payer maintenant',
  'buy.price.credit': 'Crédité maintenant',
  'buy.price.next': 'Nouveau prix récurrent',
  'buy.price.unchanged': 'Prix récurrent inchangé',
  'buy.taxes.included': 'Prix toutes taxes comprises.',
  'buy.taxes.excluded': 'Prix hors taxes\u00a0: les taxes s’ajoutent sur la facture.',
  'buy.unit-price': '{label}\u00a0: {price} l’unité.',
  'buy.unit-price.beyond': '{label}\u00a0: {price} l’unité au-delà des {included} inclus.',
  'buy.dialog.title': 'Confirmez votre achat',
  'buy.dialog.summary': 'Ajouter {quantity} {label}',
  'buy.dialog.summary.named': '{label}\u00a0: {quantity} de plus',
  'buy.dialog.split': '{included} inclus · {extra} en supplément',
  'buy.dialog.confirm.pay': 'Payer {amount} et ajouter',
  'buy.dialog.scheduled':
    'Votre offre passe à {plan} le {date}\u00a0: ce prix récurrent s’applique jusque-là.',
  'buy.dialog.scheduled.lacks': '{label}\u00a0: non inclus dans {plan}.',
  'buy.dialog.cancel': 'Annuler',
  'buy.applying': 'Application de votre achat…',
  'buy.success': 'C’est fait. Vous avez maintenant {quantity} {label}.',
  'buy.success.named': 'C’est fait. {label}\u00a0: {quantity} au total.',
  'buy.success.unconfirmed': 'Le prix peut différer\u00a0: consultez vos factures.',
  'buy.resuming': 'Vérification de votre dernier achat…',
  'buy.outcome-unknown':
    'Nous n’avons pas pu confirmer que votre achat a abouti. Réessayez\u00a0: il ne sera jamais facturé deux fois.',
  'buy.outcome-unverifiable':
    'Nous n’avons pas pu confirmer que votre achat a abouti. Vérifiez votre consommation avant d’acheter à nouveau.',
  'buy.refused.too-many':
    'Votre offre n’en permet pas autant. Choisissez une quantité plus petite.',
  'buy.refused.at-once.max':
    'Vous pouvez en acheter jusqu’à {max} en une fois. Choisissez une quantité plus petite.',
  'buy.refused.at-once':
    'C’est plus que ce qui peut être acheté en une fois. Choisissez une quantité plus petite.',
  'buy.refused.setup': 'L’achat n’est pas disponible sur cette page.',
  'buy.unlimited': '{label}\u00a0: sans limite dans votre offre, rien à acheter.',
  'buy.add-on.add': 'Ajouter l’option {label}',
  'buy.add-on.remove': 'Retirer l’option {label}',
  'buy.add-on.owned': '{label}\u00a0: ajouté à votre offre en option.',
  'buy.add-on.included': '{label}\u00a0: inclus dans votre offre.',
  'buy.add-on.elsewhere': '{label}\u00a0: non vendu séparément, inclus dans l’offre {plan}.',
  'buy.add-on.elsewhere.unnamed':
    '{label}\u00a0: non vendu séparément, inclus dans une autre offre.',
  'buy.add-on.see-plans': 'Voir les offres',
  'buy.add-on.dialog.add': 'Ajouter l’option {label}\u202f?',
  'buy.add-on.dialog.remove': 'Retirer l’option {label}\u202f?',
  'buy.add-on.dialog.remove-kept':
    'L’option {label} prend fin immédiatement, et ce qui a déjà été facturé n’est pas remboursé.',
  'buy.add-on.adding': 'Ajout de l’option {label}…',
  'buy.add-on.removing': 'Retrait de l’option {label}…',
  'buy.add-on.added': 'C’est fait.',
  'buy.add-on.removed': 'C’est fait. {label}\u00a0: retiré de votre offre.',
  'buy.add-on.outcome-unknown':
    'Nous n’avons pas pu confirmer que votre modification a abouti. Réessayez\u00a0: elle ne sera jamais facturée deux fois.',
  'error.add-on-already-on': 'Cette option fait déjà partie de votre offre.',
  'error.add-on-already-off': 'Cette option a déjà été retirée.',
  'buy.decrease.remove': 'Retirer {quantity} {label}',
  'buy.decrease.remove.named': 'Retirer {quantity} · {label}',
  'buy.decrease.remove.any': 'Retirer',
  'buy.decrease.room':
    '{label}\u00a0: vous en avez {current} et pouvez en retirer jusqu’à {removable}.',
  'buy.decrease.dialog.title': '{action}\u202f?',
  'buy.decrease.dialog.effect':
    '{label}\u00a0: de {from} à {to}, dès maintenant. Ce qui a déjà été facturé pour cette période n’est pas remboursé.',
  'buy.decrease.dialog.effect.credited': '{label}\u00a0: de {from} à {to}, dès maintenant.',
  'buy.decrease.applying': 'Retrait en cours…',
  'buy.decrease.outcome-unknown':
    'Nous n’avons pas pu confirmer que la modification a abouti. Réessayez\u00a0: elle ne sera jamais appliquée deux fois.',
  'error.not-a-decrease':
    'La quantité a changé entre-temps, il n’y a donc plus rien à retirer. Vérifiez-la et réessayez.',
  'error.below-in-use': 'C’est moins que ce qui est utilisé. Libérez-en d’abord.',
  'error.below-included': 'C’est moins que ce que votre offre inclut.',
  'error.validation': 'Cette quantité ne peut pas être achetée. Choisissez-en une autre.',
  'buy.waits.plans': 'Non inclus dans votre offre.',
  'buy.waits.pay-invoice': 'En pause jusqu’au paiement des factures en retard.',
  'buy.waits.restart': 'En pause tant que votre abonnement est suspendu.',
  'buy.waits.subscribe': 'Disponible une fois votre abonnement finalisé.',
  'buy.waits.register': 'Nécessite un moyen de paiement.',
  'buy.waits.register.update': 'Nécessite un moyen de paiement valide.',
  'buy.waits.none': 'Pas encore d’offre.',
  'buy.waits.retry': 'La facturation est injoignable.',
  'buy.waits.reload': 'Un autre compte s’est connecté depuis l’ouverture de cette page.',
} satisfies Translation<typeof buyTexts>;
