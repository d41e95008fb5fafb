import type { BillingMessages, BuiltInTexts } from '../../client/i18n.js';

// The texts only <plan-picker> shows, with the refusals only a plan change meets. Shared wording
// (errors, remedies, retry) comes from the client's catalogue.
declare module '../../client/i18n.js' {
  interface BillingMessages {
    'plan.title': string;
    'plan.current': string;
    'plan.choose': string;
    'plan.subscribe': string;
    'plan.contact': string;
    'plan.on-request': string;
    'plan.discount': string;
    'plan.per.Day': string;
    'plan.per.Week': string;
    'plan.per.Month': string;
    'plan.per.Year': string;
    'plan.every': string;
    'plan.feature.value': string;
    'plan.feature.included': string;
    'plan.feature.not-included': string;
    'plan.feature.unlimited': string;
    'plan.feature.add-on': string;
    'plan.pending': string;
    'plan.pending.action': string;
    'plan.suspended': string;
    'plan.suspended.capping': string;
    'plan.suspended.payment-method': string;
    'plan.none': string;
    'plan.empty': string;
    'plan.quoting': string;
    'plan.dialog.title': string;
    'plan.dialog.downgrade': string;
    'plan.dialog.loses': string;
    'plan.dialog.above-card': string;
    'plan.dialog.effective': string;
    'plan.dialog.from': string;
    'plan.dialog.due-now': string;
    'plan.dialog.confirm': string;
    'plan.dialog.confirm.pay': string;
    'plan.dialog.confirm.later': string;
    'plan.dialog.keeps': string;
    'plan.dialog.add-on.kept': string;
    'plan.dialog.add-on.included': string;
    'plan.dialog.cancel': string;
    'plan.applying': string;
    'plan.resuming': string;
    'plan.success.now': string;
    'plan.success.later': string;
    'plan.success.kept': string;
    'plan.scheduled': string;
    'plan.scheduled.starts': string;
    'plan.keep': string;
    'plan.dialog.keep': string;
    'plan.dialog.keep-price': string;
    'plan.outcome-unknown': string;
    'error.offer-on-request': string;
    'error.already-on-offer': string;
  }
}

type PlanMessageKey =
  | Extract<keyof BillingMessages, `plan.${string}`>
  | 'error.offer-on-request'
  | 'error.already-on-offer';

/** The built-in texts of <plan-picker>, `[English, French]`: registered when its class is defined. */
export const planTexts: BuiltInTexts<PlanMessageKey> = {
  'plan.title': ['Plans', 'Offres'],
  'plan.current': ['Current plan', 'Offre actuelle'],
  // Neutral: whether a move lowers this customer's price (extras included) is the quote's to say.
  'plan.choose': ['Switch to {title}', 'Passer à {title}'],
  'plan.subscribe': ['Subscribe to {title}', 'S’abonner à {title}'],
  'plan.contact': ['Contact us', 'Nous contacter'],
  'plan.on-request': ['On request', 'Sur demande'],
  // The subscription's discount, which moves with it to another plan; {name} is the service's
  // title of it ("20 % off everything").
  'plan.discount': ['Your discount applies: {name}.', 'Votre remise s’applique\u00a0: {name}.'],
  'plan.per.Day': ['{price}\u00a0/\u00a0day', '{price}\u00a0/\u00a0jour'],
  'plan.per.Week': ['{price}\u00a0/\u00a0week', '{price}\u00a0/\u00a0semaine'],
  'plan.per.Month': ['{price}\u00a0/\u00a0month', '{price}\u00a0/\u00a0mois'],
  'plan.per.Year': ['{price}\u00a0/\u00a0year', '{price}\u00a0/\u00a0an'],
  'plan.every': ['{price} every {period}', '{price} tous les {period}'],
  'plan.feature.value': ['{title}: {value}', '{title}\u00a0: {value}'],
  'plan.feature.included': ['Included', 'Inclus'],
  'plan.feature.not-included': ['Not included', 'Non inclus'],
  'plan.feature.unlimited': ['Unlimited', 'Illimité'],
  'plan.feature.add-on': ['Add-on, {price}', 'En option, {price}'],
  'plan.pending': [
    'Your subscription is waiting to be completed.',
    'Votre abonnement attend d’être finalisé.',
  ],
  'plan.pending.action': ['Complete your subscription', 'Finaliser votre abonnement'],
  'plan.suspended': [
    'Your subscription is suspended. Restart it before changing plan.',
    'Votre abonnement est suspendu. Réactivez-le avant de changer d’offre.',
  ],
  // Overdue invoices block a restart: paying them is the first step that works.
  'plan.suspended.payment-method': [
    'Your subscription is suspended: your payment method no longer works. Add a valid one, then restart it before changing plan.',
    'Votre abonnement est suspendu\u00a0: votre moyen de paiement ne fonctionne plus. Ajoutez-en un valide, puis réactivez-le avant de changer d’offre.',
  ],
  'plan.suspended.capping': [
    'Your subscription is suspended: invoices are overdue. Pay them, then restart it before changing plan.',
    'Votre abonnement est suspendu\u00a0: des factures sont en retard. Payez-les, puis réactivez-le avant de changer d’offre.',
  ],
  'plan.none': [
    'You do not have a subscription yet. Choose a plan to subscribe.',
    'Vous n’avez pas encore d’abonnement. Choisissez une offre pour vous abonner.',
  ],
  'plan.empty': ['No plans are available.', 'Aucune offre n’est disponible.'],
  'plan.quoting': ['Calculating the price…', 'Calcul du prix…'],
  'plan.dialog.title': ['Change to {title}?', 'Passer à {title}\u202f?'],
  // Only when the quote says the move lowers the recurring price and waits for the period end.
  'plan.dialog.downgrade': ['Downgrade to {title}?', 'Rétrograder vers {title}\u202f?'],
  // A downgrade's features the new plan lacks ({features}: "Seats and Single sign-on").
  'plan.dialog.loses': [
    'On {title} you no longer have {features}.',
    'Avec {title}, vous n’avez plus\u00a0: {features}.',
  ],
  // The new recurring price is above the card's ({price}: "$19 / month"): extras, add-ons.
  'plan.dialog.above-card': [
    'More than the {price} of {title}: it also counts your use beyond what {title} includes.',
    'Plus que les {price} de {title}\u00a0: il compte aussi votre usage au-delà de ce que {title} inclut.',
  ],
  // A downgrade confirmed earlier waits for the end of the period: said, with the way back.
  'plan.scheduled': [
    'Your plan changes to {title} on {date}.',
    'Votre offre passe à {title} le {date}.',
  ],
  'plan.scheduled.starts': ['Starts on {date}', 'Commence le {date}'],
  'plan.keep': ['Keep {title}', 'Garder {title}'],
  'plan.dialog.keep': ['Keep {title}?', 'Garder {title}\u202f?'],
  'plan.dialog.keep-price': ['Your recurring price stays', 'Votre prix récurrent reste'],
  'plan.dialog.effective': ['Takes effect on {date}.', 'Prend effet le {date}.'],
  // A change that waits for the period's end and costs nothing now: its headline is the price
  // the customer will pay from that date, and what is due now comes under it.
  'plan.dialog.from': [
    'New recurring price from {date}',
    'Nouveau prix récurrent à partir du {date}',
  ],
  'plan.dialog.due-now': ['Due now', 'À payer maintenant'],
  // The confirm button says what happens: paid and switched now, switched now for nothing, or
  // switched on a date.
  'plan.dialog.confirm': ['Switch now', 'Changer maintenant'],
  'plan.dialog.confirm.pay': ['Pay {amount} and switch', 'Payer {amount} et changer d’offre'],
  'plan.dialog.confirm.later': ['Switch on {date}', 'Changer d’offre le {date}'],
  // A downgrade's use beyond what the smaller plan includes is kept, and billed as extra.
  'plan.dialog.keeps': [
    '{label}: your {used} stay; {title} includes {included}, so {extra} are billed as extra.',
    '{label}\u00a0: vos {used} restent\u202f; {title} en inclut {included}, {extra} sont donc facturés en supplément.',
  ],
  // An add-on bought on the current plan, on the smaller plan.
  'plan.dialog.add-on.kept': [
    '{label}: kept as an add-on, {price}.',
    '{label}\u00a0: gardé en option, {price}.',
  ],
  'plan.dialog.add-on.included': [
    '{label}: included in {title}.',
    '{label}\u00a0: inclus dans {title}.',
  ],
  'plan.dialog.cancel': ['Cancel', 'Annuler'],
  'plan.applying': ['Changing your plan…', 'Changement d’offre en cours…'],
  'plan.resuming': ['Checking your last plan change…', 'Vérification de votre dernier changement…'],
  'plan.success.now': [
    'Done. You are now on {title}.',
    'C’est fait. Votre offre est maintenant {title}.',
  ],
  'plan.success.kept': ['Done. You stay on {title}.', 'C’est fait. Vous restez sur {title}.'],
  'plan.success.later': [
    'Done. Your plan changes to {title} on {date}.',
    'C’est fait. Votre offre passe à {title} le {date}.',
  ],
  'plan.outcome-unknown': [
    'We could not confirm whether your plan changed. Try again: it will never be charged twice.',
    'Nous n’avons pas pu confirmer le changement d’offre. Réessayez\u00a0: il ne sera jamais facturé deux fois.',
  ],
  'error.offer-on-request': [
    'This plan is sold on request. Contact us to move to it.',
    'Cette offre est vendue sur demande. Contactez-nous pour en bénéficier.',
  ],
  'error.already-on-offer': ['You are already on this plan.', 'Vous avez déjà cette offre.'],
};
