// The demo's own "user directory": the sandbox's fixture customers, each with the situation it
// shows off. Names and e-mails come from the sandbox at start (the fixtures are its seed data);
// situations are the demo's words for what a visitor can try.

export type Tone = 'ok' | 'info' | 'warning' | 'critical';

export interface Scenario {
  reference: string;
  /** A few words, shown as a tag. */
  label: string;
  tone: Tone;
  /** One line about the customer's billing situation. */
  situation: string;
  /** What a visitor can try while signed in as this customer. */
  tryThis: string;
  /**
   * The state of the subscription the note describes, as `scenarioState` words it (the fixture's
   * starting state): the page hides the note once the live state differs.
   */
  startsAs: string;
  /**
   * Whether the customer's prices include tax, for the proxy's `taxes` option: the sandbox
   * fixture's customers with a tax rate have prices that include it. Unset: no tax, nothing said.
   */
  taxes?: 'included';
  /** The same three texts on a French page. */
  fr: { label: string; situation: string; tryThis: string };
}

export interface DemoCustomer extends Scenario {
  name: string;
  email: string;
}

export const SCENARIOS: readonly Scenario[] = [
  {
    reference: 'healthy',
    startsAs: 'running/pro',
    label: 'Healthy',
    tone: 'ok',
    situation: 'Pro plan with a card on file; 3 of 5 seats in use.',
    tryThis: 'Buy three seats: two are included, the third is charged after you confirm its price.',
    fr: {
      label: 'En règle',
      situation: 'Offre Pro avec une carte enregistrée\u202f; 3 sièges sur 5 utilisés.',
      tryThis:
        'Achetez trois sièges\u00a0: deux sont inclus, le troisième est facturé après confirmation de son prix.',
    },
  },
  {
    reference: 'no-payment-method',
    startsAs: 'running/pro',
    label: 'No payment method',
    tone: 'warning',
    situation: 'Pro plan, all 5 seats in use, and no card on file: paid changes are refused.',
    tryThis: 'Try to buy a seat, add a card from the prompt, then buy again.',
    fr: {
      label: 'Sans moyen de paiement',
      situation:
        'Offre Pro, les 5 sièges utilisés, sans carte enregistrée\u00a0: les changements payants sont refusés.',
      tryThis:
        'Essayez d’acheter un siège, ajoutez une carte depuis l’invite, puis achetez à nouveau.',
    },
  },
  {
    reference: 'capping-reached',
    startsAs: 'suspended/pro/payment-due/capping',
    label: 'Invoices overdue',
    tone: 'critical',
    situation: 'Unpaid invoices reached the limit and the subscription is suspended.',
    tryThis: 'Pay overdue invoices, restart the subscription, then buy seats.',
    fr: {
      label: 'Factures en retard',
      situation: 'Les factures impayées ont atteint la limite et l’abonnement est suspendu.',
      tryThis: 'Payez les factures en retard, réactivez l’abonnement, puis achetez des sièges.',
    },
  },
  {
    reference: 'suspended',
    startsAs: 'suspended/pro/payment-method-invalid',
    label: 'Suspended',
    tone: 'critical',
    situation: 'The card on file stopped working and the subscription is suspended.',
    tryThis: 'Update the payment method, then restart the subscription.',
    fr: {
      label: 'Suspendu',
      situation: 'La carte enregistrée ne fonctionne plus et l’abonnement est suspendu.',
      tryThis: 'Mettez à jour le moyen de paiement, puis réactivez l’abonnement.',
    },
  },
  {
    reference: 'starter-plan',
    startsAs: 'running/starter',
    label: 'Feature not in plan',
    tone: 'info',
    situation: 'Starter plan: extra seats and single sign-on are not included.',
    tryThis: 'The seats meter names the plan that includes them.',
    fr: {
      label: 'Fonction non incluse',
      situation:
        'Offre Starter\u00a0: les sièges supplémentaires et l’authentification unique ne sont pas inclus.',
      tryThis: 'Le compteur de sièges nomme l’offre qui les inclut.',
    },
  },
  {
    reference: 'unlimited',
    startsAs: 'running/business',
    label: 'Unlimited',
    tone: 'ok',
    situation: 'Business plan with unlimited seats and projects.',
    tryThis: 'Meters show unlimited access; adding seats costs nothing.',
    fr: {
      label: 'Illimité',
      situation: 'Offre Business avec sièges et projets illimités.',
      tryThis: 'Les compteurs montrent l’accès illimité\u202f; ajouter des sièges ne coûte rien.',
    },
  },
  {
    reference: 'discounted',
    startsAs: 'running/pro',
    taxes: 'included',
    label: 'Discounted',
    tone: 'ok',
    situation: 'Pro plan with 20% off every price; prices include a 20% tax.',
    tryThis: 'Compare the price of two seats with the healthy account.',
    fr: {
      label: 'Remise',
      situation:
        'Offre Pro avec 20\u00a0% de remise sur tous les prix\u202f; prix toutes taxes comprises (20\u00a0%).',
      tryThis: 'Comparez le prix de deux sièges avec celui du compte en règle.',
    },
  },
  {
    reference: 'pending',
    startsAs: 'pending/pro',
    label: 'Waiting to be completed',
    tone: 'info',
    situation: 'Subscription created, waiting for the customer to complete it.',
    tryThis: 'Complete your subscription from the billing page.',
    fr: {
      label: 'En attente de finalisation',
      situation: 'Abonnement créé, en attente de finalisation par le client.',
      tryThis: 'Finalisez votre abonnement depuis la page de facturation.',
    },
  },
  {
    reference: 'no-subscription',
    startsAs: 'none',
    label: 'No plan yet',
    tone: 'info',
    situation: 'A new account that has not chosen a plan yet.',
    tryThis: 'Pick a plan in the portal and subscribe.',
    fr: {
      label: 'Pas encore d’offre',
      situation: 'Un nouveau compte qui n’a pas encore choisi d’offre.',
      tryThis: 'Choisissez une offre dans le portail et abonnez-vous.',
    },
  },
];

export function scenarioOf(reference: string): Scenario | undefined {
  return SCENARIOS.find((scenario) => scenario.reference === reference);
}

/** "no-payment-method" → "No payment method": the name to show when the sandbox has none. */
export function fallbackName(reference: string): string {
  const words = reference.replace(/[-_:]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * How many seats each customer's team uses in the demo app (people holding a seat): what the
 * host knows and the billing service does not. The proxy's `inUse` option refuses a decrease
 * below it, and the billing page gives it to its `<buy-feature in-use>`. A customer not listed
 * uses none the demo counts: the floor is then the plan's included seats.
 */
export const SEATS_IN_USE: Readonly<Record<string, number>> = {
  healthy: 3,
  'no-payment-method': 5,
  'capping-reached': 2,
};
