import type { BillingMessages, BuiltInTexts } from '../../client/i18n.js';

// The texts only <buy-feature> shows, with the one refusal only a purchase meets (a quantity
// the service will not sell: `error.validation`). Shared wording (errors, remedies, retry)
// comes from the client's catalogue, so every element names a refusal and its remedy alike.
declare module '../../client/i18n.js' {
  interface BillingMessages {
    'buy.quantity': string;
    'buy.range': string;
    'buy.invalid': string;
    'buy.invalid.step': string;
    'buy.invalid.min': string;
    'buy.invalid.min-step': string;
    'buy.empty': string;
    'buy.buy': string;
    'buy.calculating': string;
    'buy.price.due-now': string;
    'buy.price.no-charge': string;
    'buy.price.credit': string;
    'buy.price.next': string;
    'buy.price.unchanged': string;
    'buy.per.month': string;
    'buy.per.year': string;
    'buy.dialog.title': string;
    'buy.dialog.summary': string;
    'buy.dialog.summary.named': string;
    'buy.dialog.split': string;
    'buy.dialog.confirm': string;
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
    'buy.refused.on-off': string;
    'buy.refused.setup': string;
    'error.validation': string;
  }
}

type BuyMessageKey = Extract<keyof BillingMessages, `buy.${string}`> | 'error.validation';

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
  'buy.calculating': ['Calculating the price…', 'Calcul du prix…'],
  'buy.price.due-now': ['Due now', 'À payer maintenant'],
  'buy.price.no-charge': ['Nothing to pay now', 'Rien à payer maintenant'],
  'buy.price.credit': ['Credited now', 'Crédité maintenant'],
  'buy.price.next': ['New recurring price', 'Nouveau prix récurrent'],
  'buy.price.unchanged': ['Recurring price unchanged', 'Prix récurrent inchangé'],
  'buy.per.month': ['{amount} / month', '{amount} / mois'],
  'buy.per.year': ['{amount} / year', '{amount} / an'],
  'buy.dialog.title': ['Confirm your purchase', 'Confirmez votre achat'],
  // {label} agrees with {quantity}: `label-one` for one, `label` for several (Intl.PluralRules).
  'buy.dialog.summary': ['Add {quantity} {label}', 'Ajouter {quantity} {label}'],
  // Without a singular, a sentence that reads for any number, {label} the feature's title.
  'buy.dialog.summary.named': ['{label}: {quantity} more', '{label} : {quantity} de plus'],
  'buy.dialog.split': [
    '{included} included · {extra} extra',
    '{included} inclus · {extra} en supplément',
  ],
  'buy.dialog.confirm': ['Confirm', 'Confirmer'],
  'buy.dialog.cancel': ['Cancel', 'Annuler'],
  'buy.applying': ['Applying your purchase…', 'Application de votre achat…'],
  'buy.success': [
    'Done. You now have {quantity} {label}.',
    'C’est fait. Vous avez maintenant {quantity} {label}.',
  ],
  'buy.success.named': [
    'Done. {label}: {quantity} in all.',
    'C’est fait. {label} : {quantity} au total.',
  ],
  // Added after the success sentence when the amount charged may differ from the one confirmed.
  'buy.success.unconfirmed': [
    'The price may differ: see your invoices.',
    'Le prix peut différer : consultez vos factures.',
  ],
  'buy.resuming': ['Checking your last purchase…', 'Vérification de votre dernier achat…'],
  'buy.outcome-unknown': [
    'We could not confirm whether your purchase went through. Try again: it will never be charged twice.',
    'Nous n’avons pas pu confirmer que votre achat a abouti. Réessayez : il ne sera jamais facturé deux fois.',
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
  'buy.refused.at-once': [
    'That is more than can be bought in one go. Choose a smaller quantity.',
    'C’est plus que ce qui peut être acheté en une fois. Choisissez une quantité plus petite.',
  ],
  'buy.refused.on-off': [
    '{label} is switched on or off as a whole: there is no quantity to buy.',
    '{label} s’active ou se désactive d’un bloc : il n’y a pas de quantité à acheter.',
  ],
  'buy.refused.setup': [
    'Buying is unavailable on this page.',
    'L’achat n’est pas disponible sur cette page.',
  ],
  'error.validation': [
    'This quantity cannot be bought. Choose another one.',
    'Cette quantité ne peut pas être achetée. Choisissez-en une autre.',
  ],
};
