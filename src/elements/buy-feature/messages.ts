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
    'buy.buy': string;
    'buy.calculating': string;
    'buy.dialog.title': string;
    'buy.dialog.summary': string;
    'buy.dialog.confirm': string;
    'buy.dialog.cancel': string;
    'buy.applying': string;
    'buy.success': string;
    'buy.success.unconfirmed': string;
    'buy.resuming': string;
    'buy.outcome-unknown': string;
    'buy.outcome-unverifiable': string;
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
  'buy.buy': ['Buy', 'Acheter'],
  'buy.calculating': ['Calculating the price…', 'Calcul du prix…'],
  'buy.dialog.title': ['Confirm your purchase', 'Confirmez votre achat'],
  'buy.dialog.summary': ['Add {quantity} {label}', 'Ajouter {quantity} {label}'],
  'buy.dialog.confirm': ['Confirm', 'Confirmer'],
  'buy.dialog.cancel': ['Cancel', 'Annuler'],
  'buy.applying': ['Applying your purchase…', 'Application de votre achat…'],
  'buy.success': [
    'Done. You now have {quantity} {label}.',
    'C’est fait. Vous avez maintenant {quantity} {label}.',
  ],
  'buy.success.unconfirmed': [
    'Done. You now have {quantity} {label}. The price may differ: see your invoices.',
    'C’est fait. Vous avez maintenant {quantity} {label}. Le prix peut différer : consultez vos factures.',
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
  'error.validation': [
    'This quantity cannot be bought. Choose another one.',
    'Cette quantité ne peut pas être achetée. Choisissez-en une autre.',
  ],
};
