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
}

export interface DemoCustomer extends Scenario {
  name: string;
  email: string;
}

export const SCENARIOS: readonly Scenario[] = [
  {
    reference: 'healthy',
    label: 'Healthy',
    tone: 'ok',
    situation: 'Pro plan with a card on file; 3 of 5 seats in use.',
    tryThis: 'Buy three seats: two are included, the third is charged after you confirm its price.',
  },
  {
    reference: 'no-payment-method',
    label: 'No payment method',
    tone: 'warning',
    situation: 'Pro plan, all 5 seats in use, and no card on file: paid changes are refused.',
    tryThis: 'Try to buy a seat, add a card from the prompt, then buy again.',
  },
  {
    reference: 'capping-reached',
    label: 'Invoices overdue',
    tone: 'critical',
    situation: 'Unpaid invoices reached the limit and the subscription is suspended.',
    tryThis: 'Pay the overdue invoices, restart the subscription, then buy seats.',
  },
  {
    reference: 'suspended',
    label: 'Suspended',
    tone: 'critical',
    situation: 'The card on file stopped working and the subscription is suspended.',
    tryThis: 'Add a valid payment method, then restart the subscription.',
  },
  {
    reference: 'starter-plan',
    label: 'Feature not in plan',
    tone: 'info',
    situation: 'Starter plan: extra seats and single sign-on are not included.',
    tryThis: 'The seats meter names the plan that includes them.',
  },
  {
    reference: 'unlimited',
    label: 'Unlimited',
    tone: 'ok',
    situation: 'Business plan with unlimited seats and projects.',
    tryThis: 'Meters show unlimited access; adding seats costs nothing.',
  },
  {
    reference: 'discounted',
    label: 'Discounted',
    tone: 'ok',
    situation: 'Pro plan with 20 % off every price.',
    tryThis: 'Compare the price of two seats with the healthy account.',
  },
  {
    reference: 'pending',
    label: 'Pending',
    tone: 'info',
    situation: 'Subscription created, waiting for the customer to complete it.',
    tryThis: 'Complete your subscription from the billing page.',
  },
  {
    reference: 'no-subscription',
    label: 'No subscription',
    tone: 'info',
    situation: 'A new account that has not chosen a plan yet.',
    tryThis: 'Pick a plan in the portal and subscribe.',
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
