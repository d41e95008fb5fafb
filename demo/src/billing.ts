import {
  formatDate,
  formatMoney,
  getUsageStore,
  loadLanguage,
  languageOf,
  openPortalPage,
  remedyLabel,
  watchLang,
} from 'billing-elements';
import type {
  BillingErrorEvent,
  BuyFeature,
  PortalRequest,
  SubscriptionStatusResponse,
} from 'billing-elements';
import { STATUS_TONE, statusText, watchSubscription } from './app.js';
import { seatsNote } from './seats-note.js';
import { word } from './words.js';

// The billing page: a summary of the subscription from the proxy's GET /subscription, with
// the actions that fit its state; each one opens its workflow in a modal portal (the page embeds
// none: the service's own portal home has a page of its own, /app/portal).
// The seats card's note says the customer's own figures, from the usage store the elements
// share. Both are written again in the new language when the page's `lang` changes.

const summary = document.querySelector<HTMLElement>('[data-summary]')!;
const actions = document.querySelector<HTMLElement>('[data-actions]')!;
const status = document.querySelector<HTMLElement>('[data-status]')!;
const seatsNoteHolder = document.querySelector<HTMLElement>('[data-seats-note]');
const seatsControl = document.querySelector<BuyFeature>('buy-feature[feature="seats"]');
const store = getUsageStore();

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  children: (Node | string)[] = [],
): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

function action(label: string, request: PortalRequest, primary = false): HTMLButtonElement {
  const button = element('button', {
    type: 'button',
    className: primary ? 'button' : 'button quiet',
    textContent: label,
  });
  button.addEventListener('click', () => {
    void openPortalPage(request, { from: button });
  });
  return button;
}

/**
 * The service refused a billable change for want of a payment method
 * (`Error.Customer.PaymentSettings.Missing`, as the page's elements learned it): none is on
 * file. Undefined: nothing says so.
 */
let missingCard: string | undefined;

/**
 * The payment-method action in the elements' words for its cause: "Add a payment method" when
 * none is on file, else "Update payment method" (the words of a card that stopped working
 * also fit one that works: it is replaced).
 */
function paymentMethodAction(primary = false): HTMLButtonElement {
  const code = missingCard ?? 'payment-method-invalid';
  return action(remedyLabel(summary, 'register', code), { page: 'register' }, primary);
}

function fact(term: string, value: string): HTMLElement {
  return element('div', {}, [
    element('dt', { textContent: term }),
    element('dd', { textContent: value }),
  ]);
}

/**
 * What the customer has to pay, told by when: an invoice whose payment date is still ahead is
 * due by that date; any other (past its date, or without one) is due now. Which invoices are
 * overdue, and their Pay buttons, are the <billing-history> card's to tell.
 */
function dueFacts(sub: SubscriptionStatusResponse): HTMLElement[] {
  const now = Date.now();
  const isLater = (limit: string | undefined) => limit !== undefined && Date.parse(limit) >= now;
  const dueNow = sub.dueInvoices.filter((invoice) => !isLater(invoice.datePaymentLimit));
  const later = sub.dueInvoices.filter((invoice) => isLater(invoice.datePaymentLimit));
  const total = (invoices: SubscriptionStatusResponse['dueInvoices']) =>
    formatMoney(
      summary,
      invoices.reduce((sum, invoice) => sum + invoice.amountTotal, 0),
      invoices[0]?.currency ?? 'USD',
    );
  if (sub.dueInvoices.length === 0) return [fact(word('fact.to-pay'), word('fact.nothing'))];
  const facts: HTMLElement[] = [];
  if (dueNow.length > 0) facts.push(fact(word('fact.due'), total(dueNow)));
  const [soonest] = later.flatMap((invoice) => invoice.datePaymentLimit ?? []).sort();
  if (soonest !== undefined)
    facts.push(fact(word('fact.due-by', { date: formatDate(summary, soonest) }), total(later)));
  return facts;
}

function render(sub: SubscriptionStatusResponse): void {
  status.className = `tag tone-${STATUS_TONE[sub.status]}`;
  status.textContent = statusText(sub.status);

  const facts = element('dl', { className: 'facts' });
  // Without a plan the card's tag says so ("No plan yet") and its button leads to the plans.
  if (sub.title) facts.append(fact(word('fact.plan'), sub.title));
  if (sub.offerAfterTerm) {
    // A downgrade the customer confirmed waits for the end of the period: the plan does not
    // renew as it is, it changes then.
    const date = sub.dateOfferChange ?? sub.periodEnd;
    facts.append(
      fact(
        word('fact.changes', { title: sub.titleAfterTerm ?? sub.offerAfterTerm }),
        date ? formatDate(summary, date) : '',
      ),
    );
  } else if (sub.periodEnd && sub.status !== 'pending') {
    // A pending subscription has no period yet: it starts when the customer completes it.
    facts.append(
      fact(
        sub.status === 'running' ? word('fact.renews') : word('fact.ends'),
        formatDate(summary, sub.periodEnd),
      ),
    );
  }
  if (sub.subscriptionId !== null && sub.status !== 'pending') facts.append(...dueFacts(sub));

  // The invoices, and what to do about overdue ones, are the <billing-history> card's below:
  // told once on the page.
  const parts: Node[] = [facts];
  if (sub.status === 'suspended' && sub.suspensionReason === 'payment-method-invalid') {
    // The cause, named: the service refuses a restart until a valid payment method is on file.
    parts.push(
      element('p', { className: 'notice tone-warning', textContent: word('notice.card') }),
    );
  }
  summary.replaceChildren(...parts);
  summary.setAttribute('aria-busy', 'false');

  const buttons: HTMLButtonElement[] = [];
  switch (sub.status) {
    case 'running':
      // Without a payment method a billable change is refused: adding one is the step that
      // leads, and changing the plan waits beside it.
      if (missingCard) {
        buttons.push(paymentMethodAction(true));
        buttons.push(action(word('action.change-plan'), { page: 'change-plan' }));
      } else {
        buttons.push(action(word('action.change-plan'), { page: 'change-plan' }, true));
        buttons.push(paymentMethodAction());
      }
      break;
    case 'suspended': {
      // The first step leads. A dead card: a valid payment method, then the restart. While
      // overdue invoices reach the limit a restart is refused: their Pay buttons in the
      // invoices card are the first step, and the payment page offers the restart once paid.
      // A suspension the invoices explain offers no payment method: the card is not the cause.
      // A restart is offered only once it can succeed: with a dead card the notice above says to
      // replace it first, and the card saved, the cause becomes a plain suspension that offers it.
      const cardFirst = sub.suspensionReason === 'payment-method-invalid';
      if (cardFirst) buttons.push(paymentMethodAction(true));
      else if (!sub.paymentCappingReached) {
        const primary = sub.dueInvoices.length === 0;
        buttons.push(action(word('action.restart'), { page: 'restart' }, primary));
      }
      break;
    }
    case 'pending':
      buttons.push(action(word('action.complete'), { page: 'subscribe' }, true));
      break;
    default:
      buttons.push(action(word('action.choose'), { page: 'offers' }, true));
  }
  actions.replaceChildren(...buttons);
}

type SubscriptionResult = PromiseSettledResult<SubscriptionStatusResponse>;

/** The latest state of the subscription shown, to write again in another language. */
let shown: SubscriptionResult | undefined;

function show(result: SubscriptionResult): void {
  shown = result;
  if (result.status === 'fulfilled') {
    render(result.value);
    return;
  }
  const reason = result.reason instanceof Error ? result.reason.message : String(result.reason);
  summary.replaceChildren(
    element('p', {
      className: 'notice tone-critical',
      textContent: word('error.subscription', { reason }),
    }),
  );
  summary.setAttribute('aria-busy', 'false');
}

function showSeatsNote(): void {
  if (!seatsNoteHolder) return;
  const text = seatsNote({ state: store.state, inUse: seatsControl?.inUse }, seatsNoteHolder);
  // Nothing known yet keeps the skeleton; a failed read is the seats control's to tell, and so
  // is a plan without seats: both hide the note.
  const { status } = store.state;
  if (status === 'idle' || status === 'loading') return;
  seatsNoteHolder.textContent = text;
  seatsNoteHolder.hidden = text === '';
}

// A refusal for want of a payment method says the card is missing; a change of the account
// (a card added in the portal, another tab) makes it unknown again until the elements ask anew.
document.addEventListener('billing-error', (event: BillingErrorEvent) => {
  if (event.detail.code !== 'Error.Customer.PaymentSettings.Missing' || missingCard) return;
  missingCard = event.detail.code;
  if (shown) show(shown);
});
document.addEventListener('billing-updated', () => {
  missingCard = undefined;
});

watchSubscription(show);
store.subscribe(showSeatsNote);
store.load().then(showSeatsNote, showSeatsNote);
/** The remedies' words are the elements': the card is written again once they have arrived. */
function showInElementsWords(): void {
  void loadLanguage(languageOf(summary)).then(() => {
    if (shown) show(shown);
  });
}

showInElementsWords();
watchLang(() => {
  if (shown) show(shown);
  showSeatsNote();
  showInElementsWords();
});
