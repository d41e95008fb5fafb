import type { BillingMessages, BuiltInTexts } from '../../client/i18n.js';

// The texts only <buy-feature> shows, with the one refusal only a purchase meets (a quantity
// the service will not sell: `error.validation`). Shared wording (errors, remedies, retry)
// comes from the client's catalogue, so every element names a refusal and its remedy alike.
declare module '../../client/i18n.js' {
  interface BillingMessages {
    /**
     * A feature's unit words in one language, given by the page (`configureBilling({ messages:
     * { fr: { 'unit.seats.one': 'siège', 'unit.seats.other': 'sièges' } } })`): they win over
     * the `label` and `label-one` attributes in that language. No built-in text.
     */
    [unit: `unit.${string}.${'one' | 'other'}`]: string;
    'buy.quantity': string;
    'buy.range': string;
    'buy.invalid': string;
    'buy.invalid.step': string;
    'buy.invalid.min': string;
    'buy.invalid.min-step': string;
    'buy.empty': string;
    'buy.buy': string;
    'buy.buy.counted': string;
    'buy.buy.named': string;
    'buy.calculating': string;
    'buy.price.due-now': string;
    'buy.price.no-charge': string;
    'buy.price.credit': string;
    'buy.price.next': string;
    'buy.price.unchanged': string;
    'buy.per.month': string;
    'buy.unit-price': string;
    'buy.unit-price.beyond': string;
    'buy.per.year': string;
    'buy.dialog.title': string;
    'buy.dialog.summary': string;
    'buy.dialog.summary.named': string;
    'buy.dialog.split': string;
    'buy.dialog.confirm.pay': string;
    'buy.dialog.cancel': string;
    'buy.applying': string;
    'buy.success': string;
    'buy.success.named': string;
    'buy.success.unconfirmed': string;
    'buy.resuming': string;
    'buy.outcome-unknown': string;
    'buy.outcome-unverifiable': string;
    'buy.refused.too-many': string;
    'buy.refused.at-once': string;
    'buy.refused.at-once.max': string;
    'buy.refused.setup': string;
    'buy.unlimited': string;
    'buy.add-on.add': string;
    'buy.add-on.remove': string;
    'buy.add-on.owned': string;
    'buy.add-on.included': string;
    'buy.add-on.elsewhere': string;
    'buy.add-on.elsewhere.unnamed': string;
    'buy.add-on.see-plans': string;
    'buy.add-on.dialog.add': string;
    'buy.add-on.dialog.remove': string;
    'buy.add-on.dialog.remove-kept': string;
    'buy.add-on.adding': string;
    'buy.add-on.removing': string;
    'buy.add-on.added': string;
    'buy.add-on.removed': string;
    'buy.add-on.outcome-unknown': string;
    'error.add-on-already-on': string;
    'error.add-on-already-off': string;
    'buy.decrease.remove': string;
    'buy.decrease.remove.named': string;
    'buy.decrease.remove.any': string;
    'buy.decrease.room': string;
    'buy.decrease.dialog.title': string;
    'buy.decrease.dialog.effect': string;
    'buy.decrease.dialog.effect.credited': string;
    'buy.decrease.applying': string;
    'buy.decrease.outcome-unknown': string;
    'error.not-a-decrease': string;
    'error.below-in-use': string;
    'error.below-included': string;
    'error.validation': string;
    'buy.waits.plans': string;
    'buy.waits.pay-invoice': string;
    'buy.waits.restart': string;
    'buy.waits.subscribe': string;
    'buy.waits.register': string;
    'buy.waits.retry': string;
  }
}

type BuyMessageKey =
  | Extract<keyof BillingMessages, `buy.${string}`>
  | 'error.validation'
  | 'error.add-on-already-on'
  | 'error.add-on-already-off'
  | 'error.not-a-decrease'
  | 'error.below-in-use'
  | 'error.below-included';

/** The built-in texts of <buy-feature>, `[English, French]`: registered when its class is defined. */
export const buyTexts: BuiltInTexts<BuyMessageKey> = {
  'buy.quantity': ['Quantity', 'Quantité'],
  'buy.range': ['From {min} to {max}', 'De {min} à {max}'],
  'buy.invalid': [
    'Choose a whole number from {min} to {max}.',
    'Choisissez un nombre entier de {min} à {max}.',
  ],
  'buy.invalid.step': [
    'Choose a quantity from {min} to {max}, in steps of {step}.',
    'Choisissez une quantité de {min} à {max}, par pas de {step}.',
  ],
  'buy.invalid.min': [
    'Choose a whole number, {min} or more.',
    'Choisissez un nombre entier, {min} ou plus.',
  ],
  'buy.invalid.min-step': [
    'Choose a quantity of {min} or more, in steps of {step}.',
    'Choisissez une quantité de {min} ou plus, par pas de {step}.',
  ],
  'buy.empty': ['Enter a quantity to see its price.', 'Saisissez une quantité pour voir son prix.'],
  'buy.buy': ['Buy', 'Acheter'],
  // The Buy button's accessible name: what it buys ("Buy 3 seats"), the visible "Buy" first.
  'buy.buy.counted': ['Buy {quantity} {label}', 'Acheter {quantity} {label}'],
  'buy.buy.named': ['Buy {quantity} · {label}', 'Acheter {quantity} · {label}'],
  'buy.calculating': ['Calculating the price…', 'Calcul du prix…'],
  'buy.price.due-now': ['Due now', 'À payer maintenant'],
  'buy.price.no-charge': ['Nothing to pay now', 'Rien à payer maintenant'],
  'buy.price.credit': ['Credited now', 'Crédité maintenant'],
  'buy.price.next': ['New recurring price', 'Nouveau prix récurrent'],
  'buy.price.unchanged': ['Recurring price unchanged', 'Prix récurrent inchangé'],
  'buy.per.month': ['{amount}\u00a0/\u00a0month', '{amount}\u00a0/\u00a0mois'],
  'buy.per.year': ['{amount}\u00a0/\u00a0year', '{amount}\u00a0/\u00a0an'],
  // A price the service cannot quote before a payment method is added: the plan's, per unit.
  'buy.unit-price': ['{label}: {price} each.', '{label}\u00a0: {price} l’unité.'],
  'buy.unit-price.beyond': [
    '{label}: {price} each beyond the {included} included.',
    '{label}\u00a0: {price} l’unité au-delà des {included} inclus.',
  ],
  'buy.dialog.title': ['Confirm your purchase', 'Confirmez votre achat'],
  // {label} agrees with {quantity}: `label-one` for one, `label` for several (Intl.PluralRules).
  'buy.dialog.summary': ['Add {quantity} {label}', 'Ajouter {quantity} {label}'],
  // Without a singular, a sentence that reads for any number, {label} the feature's title.
  'buy.dialog.summary.named': ['{label}: {quantity} more', '{label}\u00a0: {quantity} de plus'],
  'buy.dialog.split': [
    '{included} included · {extra} extra',
    '{included} inclus · {extra} en supplément',
  ],
  // The confirm button says what happens: the amount paid now, else the change itself (the
  // summary's sentence, "Add 3 seats").
  'buy.dialog.confirm.pay': ['Pay {amount} and add', 'Payer {amount} et ajouter'],
  'buy.dialog.cancel': ['Cancel', 'Annuler'],
  'buy.applying': ['Applying your purchase…', 'Application de votre achat…'],
  'buy.success': [
    'Done. You now have {quantity} {label}.',
    'C’est fait. Vous avez maintenant {quantity} {label}.',
  ],
  'buy.success.named': [
    'Done. {label}: {quantity} in all.',
    'C’est fait. {label}\u00a0: {quantity} au total.',
  ],
  // Added after the success sentence when the amount charged may differ from the one confirmed.
  'buy.success.unconfirmed': [
    'The price may differ: see your invoices.',
    'Le prix peut différer\u00a0: consultez vos factures.',
  ],
  'buy.resuming': ['Checking your last purchase…', 'Vérification de votre dernier achat…'],
  'buy.outcome-unknown': [
    'We could not confirm whether your purchase went through. Try again: it will never be charged twice.',
    'Nous n’avons pas pu confirmer que votre achat a abouti. Réessayez\u00a0: il ne sera jamais facturé deux fois.',
  ],
  'buy.outcome-unverifiable': [
    'We could not confirm whether your purchase went through. Check your usage before buying again.',
    'Nous n’avons pas pu confirmer que votre achat a abouti. Vérifiez votre consommation avant d’acheter à nouveau.',
  ],
  // One text per cause of a refused quantity (refusal.ts tells them apart).
  'buy.refused.too-many': [
    'Your plan does not allow that many. Choose a smaller quantity.',
    'Votre offre n’en permet pas autant. Choisissez une quantité plus petite.',
  ],
  // {max}: the proxy's limit per purchase, from its refusal ("10,000").
  'buy.refused.at-once.max': [
    'You can buy up to {max} at once. Choose a smaller quantity.',
    'Vous pouvez en acheter jusqu’à {max} en une fois. Choisissez une quantité plus petite.',
  ],
  'buy.refused.at-once': [
    'That is more than can be bought in one go. Choose a smaller quantity.',
    'C’est plus que ce qui peut être acheté en une fois. Choisissez une quantité plus petite.',
  ],
  'buy.refused.setup': [
    'Buying is unavailable on this page.',
    'L’achat n’est pas disponible sur cette page.',
  ],
  // A plan with unlimited access: nothing to buy ({label} the feature's title, "Seats").
  'buy.unlimited': [
    '{label}: unlimited in your plan, nothing to buy.',
    '{label}\u00a0: illimité dans votre offre, rien à acheter.',
  ],
  // The add-on mode, on an on/off feature; {label} is the feature's name ("Priority support").
  'buy.add-on.add': ['Add {label}', 'Ajouter l’option {label}'],
  'buy.add-on.remove': ['Remove {label}', 'Retirer l’option {label}'],
  // Where it stands, in the meters' and the gate's wording: "{label}: state." ("Seats: not
  // included in your plan."), so that a card of several elements reads as one list.
  'buy.add-on.owned': [
    '{label}: added to your plan as an add-on.',
    '{label}\u00a0: ajouté à votre offre en option.',
  ],
  'buy.add-on.included': [
    '{label}: included in your plan.',
    '{label}\u00a0: inclus dans votre offre.',
  ],
  'buy.add-on.elsewhere': [
    '{label}: not sold separately, included in the {plan} plan.',
    '{label}\u00a0: non vendu séparément, inclus dans l’offre {plan}.',
  ],
  'buy.add-on.elsewhere.unnamed': [
    '{label}: not sold separately, included in another plan.',
    '{label}\u00a0: non vendu séparément, inclus dans une autre offre.',
  ],
  'buy.add-on.see-plans': ['See plans', 'Voir les offres'],
  'buy.add-on.dialog.add': ['Add {label}?', 'Ajouter l’option {label}\u202f?'],
  'buy.add-on.dialog.remove': ['Remove {label}?', 'Retirer l’option {label}\u202f?'],
  // Removing ends the add-on at once and refunds nothing of what was billed for this period.
  'buy.add-on.dialog.remove-kept': [
    '{label} ends now, and what was already billed for it is not refunded.',
    'L’option {label} prend fin immédiatement, et ce qui a déjà été facturé n’est pas remboursé.',
  ],
  'buy.add-on.adding': ['Adding {label}…', 'Ajout de l’option {label}…'],
  'buy.add-on.removing': ['Removing {label}…', 'Retrait de l’option {label}…'],
  'buy.add-on.added': [
    'Done. {label}: added to your plan.',
    'C’est fait. {label}\u00a0: ajouté à votre offre.',
  ],
  'buy.add-on.removed': [
    'Done. {label}: removed from your plan.',
    'C’est fait. {label}\u00a0: retiré de votre offre.',
  ],
  'buy.add-on.outcome-unknown': [
    'We could not confirm whether your change went through. Try again: it will never be charged twice.',
    'Nous n’avons pas pu confirmer que votre modification a abouti. Réessayez\u00a0: elle ne sera jamais facturée deux fois.',
  ],
  // A decrease (`allow-decrease`): {label} agrees with {quantity} as in 'buy.dialog.summary'.
  'buy.decrease.remove': ['Remove {quantity} {label}', 'Retirer {quantity} {label}'],
  'buy.decrease.remove.named': ['Remove {quantity} · {label}', 'Retirer {quantity} · {label}'],
  'buy.decrease.remove.any': ['Remove', 'Retirer'],
  // {label} the feature's title ("Seats"), {current} the quantity now, {removable} how many can go.
  'buy.decrease.room': [
    '{label}: you have {current}, and can remove up to {removable}.',
    '{label}\u00a0: vous en avez {current} et pouvez en retirer jusqu’à {removable}.',
  ],
  // {action} is the confirm button's own words ("Remove 2 seats").
  'buy.decrease.dialog.title': ['{action}?', '{action}\u202f?'],
  // The headline of a decrease: what changes now, and that nothing billed is given back (worded
  // as an add-on's removal).
  'buy.decrease.dialog.effect': [
    '{label}: from {from} to {to}, starting now. What was already billed for this period is not refunded.',
    '{label}\u00a0: de {from} à {to}, dès maintenant. Ce qui a déjà été facturé pour cette période n’est pas remboursé.',
  ],
  'buy.decrease.dialog.effect.credited': [
    '{label}: from {from} to {to}, starting now.',
    '{label}\u00a0: de {from} à {to}, dès maintenant.',
  ],
  'buy.decrease.applying': ['Removing…', 'Retrait en cours…'],
  'buy.decrease.outcome-unknown': [
    'We could not confirm whether the change went through. Try again: it will never be applied twice.',
    'Nous n’avons pas pu confirmer que la modification a abouti. Réessayez\u00a0: elle ne sera jamais appliquée deux fois.',
  ],
  // The quantity moved elsewhere (another tab) since the decrease was shown.
  'error.not-a-decrease': [
    'The quantity changed meanwhile, so nothing is left to remove. Check it and try again.',
    'La quantité a changé entre-temps, il n’y a donc plus rien à retirer. Vérifiez-la et réessayez.',
  ],
  'error.below-in-use': [
    'That is fewer than are in use. Free some first.',
    'C’est moins que ce qui est utilisé. Libérez-en d’abord.',
  ],
  'error.below-included': [
    'That is fewer than your plan includes.',
    'C’est moins que ce que votre offre inclut.',
  ],
  'error.add-on-already-on': [
    'This add-on is already in your plan.',
    'Cette option fait déjà partie de votre offre.',
  ],
  'error.add-on-already-off': [
    'This add-on was already removed.',
    'Cette option a déjà été retirée.',
  ],
  'error.validation': [
    'This quantity cannot be bought. Choose another one.',
    'Cette quantité ne peut pas être achetée. Choisissez-en une autre.',
  ],
  // Beside a state whose remedy another element of the page offers (it says the whole story):
  // what this control waits for, in a few words.
  'buy.waits.plans': ['Not included in your plan.', 'Non compris dans votre offre.'],
  'buy.waits.pay-invoice': [
    'Paused until the overdue invoices are settled.',
    'En pause jusqu’au règlement des factures en retard.',
  ],
  'buy.waits.restart': [
    'Paused while your subscription is suspended.',
    'En pause tant que votre abonnement est suspendu.',
  ],
  'buy.waits.subscribe': [
    'Available once your subscription is complete.',
    'Disponible une fois votre abonnement finalisé.',
  ],
  'buy.waits.register': ['Needs a payment method.', 'Nécessite un moyen de paiement.'],
  'buy.waits.retry': ['Billing could not be reached.', 'La facturation est injoignable.'],
};
