import { localize } from '../catalog.js';
import {
  payInvoice,
  setBillingAddress,
  setPaymentMethod,
  upsertCustomer,
} from '../billing/operations.js';
import {
  isCappingReached,
  overdueInvoices,
  restartBlocker,
  SUSPENDED_STATES,
} from '../billing/rules.js';
import { recurringPrice } from '../billing/pricing.js';
import { ApiError } from '../http/errors.js';
import type { Reply } from '../http/io.js';
import { perPeriod } from '../i18n.js';
import type { InvoiceRecord, SubscriptionRecord } from '../state/types.js';
import { COUNTRY_CODES } from './countries.js';
import {
  cardFields,
  checkCard,
  countryField,
  errorSummary,
  field,
  type FieldErrors,
} from './forms.js';
import { html, type SafeHtml } from './html.js';
import { stateLabel } from './messages.js';
import { errorAlert, successAlert, type PageContext } from './page-context.js';

// Portal home, register (contact + payment method), charge, invoice document and invoice list.

function badgeClass(state: string): string {
  if (state === 'Running' || state === 'Paid') return 'badge ok';
  if (SUSPENDED_STATES.has(state) || state === 'Overdue') return 'badge bad';
  if (state === 'PaymentDue') return 'badge warn';
  return 'badge';
}

export function badge(page: PageContext, state: string): SafeHtml {
  return html`<span class="${badgeClass(state)}">${stateLabel(state, page.lang)}</span>`;
}

/**
 * Whether a subscription suspended for a payment (an invalid method, or overdue invoices) has
 * nothing left in the way: a valid method on file and no overdue invoice. The service restarts
 * nothing by itself, so it waits for the customer's restart.
 */
export function readyToRestart(page: PageContext, sub: SubscriptionRecord): boolean {
  if (sub.state !== 'SuspendedPaymentMethodInvalid' && sub.state !== 'SuspendedPaymentDue')
    return false;
  const { store } = page.ctx;
  const nowMs = store.clock.nowMs();
  return (
    restartBlocker(store, page.customer, nowMs) === null &&
    overdueInvoices(store, page.customer, nowMs).length === 0
  );
}

/**
 * A subscription's state as the customer reads it: one suspended for a payment whose cause is
 * gone (the method replaced, the overdue invoices paid) is ready to restart, and no longer says
 * its payment method is invalid or a payment is due.
 */
export function subscriptionBadge(page: PageContext, sub: SubscriptionRecord): SafeHtml {
  if (!readyToRestart(page, sub)) return badge(page, sub.state);
  return html`<span class="badge bad">${stateLabel('SuspendedReadyToRestart', page.lang)}</span>`;
}

/** An invoice's state: a due one past its payment limit is overdue, not merely due. */
function invoiceBadge(page: PageContext, invoice: InvoiceRecord): SafeHtml {
  const overdue =
    invoice.state === 'PaymentDue' &&
    Date.parse(invoice.datePaymentLimit) < page.ctx.store.clock.nowMs();
  return badge(page, overdue ? 'Overdue' : invoice.state);
}

function featureRows(page: PageContext, sub: SubscriptionRecord): SafeHtml {
  const { catalog } = page.ctx;
  const offer = catalog.offers.get(sub.offer);
  if (!offer) return html``;
  const number = new Intl.NumberFormat(page.lang === 'fr' ? 'fr-FR' : 'en-US');
  return html`<table class="features">
    <caption>
      ${page.texts.features}
    </caption>
    <tbody>
      ${offer.features.map((of) => {
        const def = catalog.features.get(of.reference);
        const rec = sub.features[of.reference];
        if (!def || !rec || of.visible === false) return '';
        // The words of the elements' meters and add-on control, so that the portal and the
        // page beside it tell one story: "Included", "Added as an add-on", "6 · 5 included +
        // 1 extra". A suspended subscription's features stop until it runs again; a pending
        // one's have not started yet.
        const suspended = SUSPENDED_STATES.has(sub.state);
        const pending = sub.state === 'PendingSubscription';
        const { quantityCurrent: used, quantityIncluded: total } = rec;
        let value: string;
        if (def.type === 'OnOff') {
          const included = of.included ?? true;
          // An add-on the plan sells and the customer has not taken is one they can have.
          const sold = !included && of.updatable === true;
          if (!rec.enabled)
            value = included
              ? page.texts.turnedOff
              : sold
                ? page.texts.addOnNotAdded
                : page.texts.notIncluded;
          else if (pending) value = included ? page.texts.includedOnStart : page.texts.addOn;
          else if (suspended) value = page.texts.paused;
          else value = included ? page.texts.included : page.texts.addOn;
        } else if (total === -1) {
          value = page.texts.unlimitedUsed.replace('{used}', number.format(used));
        } else if (def.type === 'Limitation' && used > total) {
          value = page.texts.split
            .replace('{used}', number.format(used))
            .replace('{total}', number.format(total))
            .replace('{extra}', number.format(used - total));
        } else if (def.type === 'Limitation') {
          value = page.texts.ofIncluded
            .replace('{used}', number.format(used))
            .replace('{total}', number.format(total));
        } else {
          value = `${number.format(used)} ${page.texts.of} ${number.format(total)}${def.type === 'Consumption' ? ` ${page.texts.used}` : ''}`;
        }
        return html`<tr>
          <th scope="row">${localize(def.title, page.lang)}</th>
          <td class="num">${value}</td>
        </tr>`;
      })}
    </tbody>
  </table>`;
}

function invoiceTable(page: PageContext, invoices: InvoiceRecord[], caption: string): SafeHtml {
  const texts = page.texts;
  if (invoices.length === 0) return html`<p>${texts.noInvoices}</p>`;
  return html`<table class="stack">
    <caption>
      ${caption}
    </caption>
    <thead>
      <tr>
        <th scope="col">${texts.number}</th>
        <th scope="col">${texts.issued}</th>
        <th scope="col" class="num">${texts.amount}</th>
        <th scope="col">${texts.state}</th>
        <th scope="col">${texts.action}</th>
      </tr>
    </thead>
    <tbody>
      ${invoices.map(
        (i) =>
          html`<tr>
            <td data-label="${texts.number}">${i.number}</td>
            <td data-label="${texts.issued}">${page.date(i.dateIssue)}</td>
            <td class="num" data-label="${texts.amount}">${page.money(i.amountTotal)}</td>
            <td data-label="${texts.state}">${invoiceBadge(page, i)}</td>
            <td>
              <a href="${page.link({ page: 'invoice', i: i.id })}"
                >${texts.view}<span class="visually-hidden"> ${i.number}</span></a
              >${
                i.state === 'PaymentDue'
                  ? html` ·
                      <a href="${page.link({ page: 'charge', i: i.id })}"
                        >${texts.pay}<span class="visually-hidden"> ${i.number}</span></a
                      >`
                  : ''
              }
            </td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

export function portalPage(page: PageContext): Reply {
  const { store, catalog } = page.ctx;
  const texts = page.texts;
  const sub = page.target.s
    ? store.findSubscription(page.target.s)
    : store.mainSubscription(page.customer.id);
  const due = store.invoicesOf(page.customer.id).filter((i) => i.state === 'PaymentDue');
  let body: SafeHtml;
  if (!sub || sub.customerId !== page.customer.id) {
    body = html`<h1>${texts.portalTitle}</h1>
      <div class="card">
        <p>${texts.noSubscription}</p>
        <p><a class="button" href="${page.link({ page: 'offers' })}">${texts.seePlans}</a></p>
      </div>`;
  } else {
    const offer = catalog.offers.get(sub.offer);
    const price = recurringPrice(catalog, sub);
    const period = offer
      ? perPeriod(offer.durationRecurrence, offer.unitRecurrence, page.lang)
      : '';
    const suspended = SUSPENDED_STATES.has(sub.state);
    // While overdue invoices reach the cap the service refuses a restart: the home offers to
    // pay them first (the payment page offers the restart once the cap is lifted).
    const capping = isCappingReached(store, page.customer, store.clock.nowMs());
    const [oldestDue] = due;
    // A dead card comes first: the service refuses a restart until a valid method is on file,
    // so updating the payment method leads (worded as the action, as the host's pages word it)
    // and the restart follows it.
    const cardFirst = suspended && !capping && page.customer.paymentMethod !== 'valid';
    const scheduled = sub.offerAfterTerm ? catalog.offers.get(sub.offerAfterTerm) : undefined;
    body = html`<h1>${texts.portalTitle}</h1>
      <div class="card">
        <h2>
          ${offer ? localize(offer.title, page.lang) : sub.offer} ${subscriptionBadge(page, sub)}
        </h2>
        <p class="price">${page.money(price.total)}&nbsp;<small>${period}</small></p>
        ${price.total !== price.subtotal ? html`<p class="hint">${texts.discount}${texts.colon} ${page.money(price.subtotal - price.total)}</p>` : ''}
        ${
          sub.state === 'PendingSubscription'
            ? html`<p class="hint">${texts.notStarted}</p>`
            : html`<p class="hint">
                ${texts.period}${texts.colon} ${page.date(sub.periodStart)} –
                ${page.date(sub.periodEnd)}
              </p>`
        }
        ${scheduled ? html`<p class="hint">${texts.planAfterTerm} ${localize(scheduled.title, page.lang)}, ${page.date(sub.periodEnd)}</p>` : ''}
        ${featureRows(page, sub)}
        ${suspended && capping ? html`<div class="alert info" data-capping><p>${texts.restartBlockedCapping}</p></div>` : ''}
        ${cardFirst ? html`<div class="alert info" data-method><p>${texts.restartBlockedMethod}</p></div>` : ''}
        <div class="actions">
          ${sub.state === 'Running' ? html`<a class="button" href="${page.link({ page: 'upgrade', s: sub.id })}">${texts.changePlan}</a>` : ''}
          ${suspended && capping && oldestDue ? html`<a class="button" href="${page.link({ page: 'charge', i: oldestDue.id })}">${texts.payOverdue}</a>` : ''}
          ${cardFirst ? html`<a class="button" href="${page.link({ page: 'register' })}">${texts.updatePaymentMethod}</a>` : ''}
          ${suspended && !capping ? html`<a class="button${cardFirst ? ' quiet' : ''}" href="${page.link({ page: 'restart', s: sub.id })}">${texts.restart}</a>` : ''}
          ${sub.state === 'PendingSubscription' ? html`<a class="button" href="${page.link({ page: 'subscribe', s: sub.id })}">${texts.completeSubscription}</a>` : ''}
          ${cardFirst ? '' : html`<a class="button quiet" href="${page.link({ page: 'register' })}">${texts.paymentDetails}</a>`}
          <a class="button quiet" href="${page.link({ page: 'invoices' })}">${texts.invoices}</a>
        </div>
      </div>
      ${due.length > 0 ? html`<div class="card">${invoiceTable(page, due, texts.dueInvoices)}</div>` : ''}`;
  }
  return page.render(texts.portalTitle, body);
}

function paymentMethodSummary(page: PageContext): SafeHtml {
  const { texts, customer } = page;
  if (customer.paymentMethod === 'valid')
    return html`<p>
      ${texts.currentMethod}${texts.colon} <strong>${customer.paymentMethodLabel ?? ''}</strong>
    </p>`;
  if (customer.paymentMethod === 'invalid')
    return html`<div class="alert info"><p>${texts.invalidMethod}</p></div>`;
  return html`<div class="alert info"><p>${texts.noMethod}</p></div>`;
}

/** The contact and address fields: filled in from the customer, so they start folded away. */
const DETAIL_FIELDS = ['name', 'email', 'company', 'addressLine1', 'zipCode', 'city', 'country'];

/**
 * Adding a card asks for the card: its fields come first. The contact (already known) and the
 * billing address (optional) are folded beneath, open when one of them needs attention.
 */
function registerForm(
  page: PageContext,
  values: URLSearchParams,
  errors: FieldErrors,
  message?: string,
): SafeHtml {
  const texts = page.texts;
  const unfold =
    DETAIL_FIELDS.some((name) => errors[name]) ||
    !(values.get('name') ?? '').trim() ||
    !(values.get('email') ?? '').trim();
  return html`<h1>${texts.registerTitle}</h1>
    <p class="lead">${texts.registerLead}</p>
    ${errorSummary(page.lang, errors, message)} ${paymentMethodSummary(page)}
    <form method="post" action="${page.action}" novalidate class="card">
      ${page.customer.paymentMethod === 'valid' ? html`<p class="hint">${texts.cardOptional}</p>` : ''}
      ${cardFields(page.lang, values, errors)}
      <details class="more" ${unfold ? html` open` : ''}>
        <summary>${texts.contactAndAddress}</summary>
        <fieldset>
          <legend>${texts.contact}</legend>
          ${field({ name: 'name', label: 'name', autocomplete: 'name', required: true }, page.lang, values, errors)}
          ${field({ name: 'email', label: 'email', type: 'email', autocomplete: 'email', required: true }, page.lang, values, errors)}
        </fieldset>
        <fieldset>
          <legend>${texts.address}</legend>
          <p class="hint">${texts.addressOptional}</p>
          ${field({ name: 'company', label: 'company', autocomplete: 'organization' }, page.lang, values, errors)}
          ${field({ name: 'addressLine1', label: 'addressLine1', autocomplete: 'address-line1' }, page.lang, values, errors)}
          <div class="row">
            ${field({ name: 'zipCode', label: 'zipCode', autocomplete: 'postal-code' }, page.lang, values, errors)}
            ${field({ name: 'city', label: 'city', autocomplete: 'address-level2' }, page.lang, values, errors)}
          </div>
          ${countryField(page.lang, values, errors)}
        </fieldset>
      </details>
      <div class="actions">
        <button type="submit">${texts.save}</button>
        <a class="button quiet" href="${page.link({ page: 'portal' })}">${texts.backToPortal}</a>
      </div>
    </form>`;
}

export function registerPage(page: PageContext): Reply {
  const c = page.customer;
  const a = c.billingAddress ?? {};
  const values = new URLSearchParams({
    name: c.name,
    email: c.email,
    company: a.Company ?? '',
    addressLine1: a.AddressLine1 ?? '',
    zipCode: a.ZipCode ?? '',
    city: a.City ?? '',
    country: a.Country ?? '',
  });
  return page.render(page.texts.registerTitle, registerForm(page, values, {}));
}

export function registerSubmit(page: PageContext, form: URLSearchParams): Reply {
  const errors: FieldErrors = {};
  const name = (form.get('name') ?? '').trim();
  const email = (form.get('email') ?? '').trim();
  const country = (form.get('country') ?? '').trim().toUpperCase();
  if (!name) errors.name = 'required';
  if (!email) errors.email = 'required';
  else if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) errors.email = 'invalidEmail';
  // The list's codes, or the one already on file (kept when the form is saved unchanged).
  const stored = page.customer.billingAddress?.Country;
  if (country && !COUNTRY_CODES.has(country) && country !== stored)
    errors.country = 'invalidCountry';
  // With a valid card on file, blank card fields keep it (contact or address update only).
  const keepCard =
    page.customer.paymentMethod === 'valid' &&
    ['cardHolder', 'cardNumber', 'cardExpiry', 'cardCvc'].every((k) => !(form.get(k) ?? '').trim());
  const card = keepCard ? null : checkCard(form, page.ctx.store.clock.nowMs());
  if (card) Object.assign(errors, card.errors);
  // Card data is never echoed back into the page.
  const values = new URLSearchParams(form);
  for (const key of ['cardNumber', 'cardCvc']) values.delete(key);
  if (Object.keys(errors).length > 0) {
    return page.render(page.texts.registerTitle, registerForm(page, values, errors), {
      status: 422,
    });
  }
  if (card?.declined) {
    return page.render(
      page.texts.registerTitle,
      registerForm(page, values, {}, page.texts.declined),
      {
        status: 422,
      },
    );
  }
  const { store } = page.ctx;
  const c = page.customer;
  // Through the API's create-or-update, so that a change of name or e-mail is notified.
  upsertCustomer(store, { reference: c.reference, name, email });
  const opt = (key: string) => (form.get(key) ?? '').trim() || undefined;
  setBillingAddress(store, c, {
    ...c.billingAddress,
    Company: opt('company'),
    AddressLine1: opt('addressLine1'),
    ZipCode: opt('zipCode'),
    City: opt('city'),
    Country: country || undefined,
  });
  if (card) setPaymentMethod(store, c, 'valid', card.label);
  const suspended = store.subscriptionsOf(c.id).find((s) => SUSPENDED_STATES.has(s.state));
  const texts = page.texts;
  return page.render(
    texts.registerTitle,
    html`<h1>${texts.registerTitle}</h1>
      ${successAlert(texts.saved)} ${paymentMethodSummary(page)}
      <div class="actions">
        ${suspended ? html`<a class="button" href="${page.link({ page: 'restart', s: suspended.id })}">${texts.restart}</a>` : ''}
        <a class="button quiet" href="${page.link({ page: 'portal' })}">${texts.backToPortal}</a>
      </div>`,
    { complete: 'register' },
  );
}

function ownInvoice(page: PageContext): InvoiceRecord | null {
  const id = page.target.i;
  if (id === undefined) return null;
  const invoice = page.ctx.store.invoicesOf(page.customer.id).find((i) => i.id === id);
  return invoice ?? null;
}

function invoiceSummary(page: PageContext, invoice: InvoiceRecord): SafeHtml {
  const texts = page.texts;
  return html`<dl class="card">
    <div>
      <dt>${texts.number}</dt>
      <dd>${invoice.number}</dd>
    </div>
    <div>
      <dt>${texts.amount}</dt>
      <dd class="price">${page.money(invoice.amountTotal)}</dd>
    </div>
    <div>
      <dt>${texts.dueDate}</dt>
      <dd>${page.date(invoice.datePaymentLimit)}</dd>
    </div>
    <div>
      <dt>${texts.state}</dt>
      <dd>${invoiceBadge(page, invoice)}</dd>
    </div>
  </dl>`;
}

/** The customer's other invoices still to pay, oldest first. */
function otherDue(page: PageContext, invoice: InvoiceRecord): InvoiceRecord[] {
  return page.ctx.store
    .invoicesOf(page.customer.id)
    .filter((i) => i.state === 'PaymentDue' && i.id !== invoice.id);
}

/**
 * The other invoices to pay, each with its Pay link: settling overdue invoices starts with one
 * of them, and the page says how many more there are rather than only the first.
 */
function otherDueCard(page: PageContext, others: InvoiceRecord[]): SafeHtml {
  if (others.length === 0) return html``;
  const texts = page.texts;
  const total = others.reduce((sum, i) => sum + i.amountTotal, 0);
  return html`<section class="card" aria-labelledby="other-due" data-other-due>
    <h2 id="other-due">
      ${texts.alsoToPay.replace('{count}', String(others.length)).replace('{amount}', page.money(total))}
    </h2>
    <ul class="plain">
      ${others.map(
        (i) =>
          html`<li>
            ${i.number} · ${page.money(i.amountTotal)} · ${invoiceBadge(page, i)} ·
            <a href="${page.link({ page: 'charge', i: i.id })}"
              >${texts.pay}<span class="visually-hidden"> ${i.number}</span></a
            >
          </li>`,
      )}
    </ul>
  </section>`;
}

function chargeForm(
  page: PageContext,
  invoice: InvoiceRecord,
  form: URLSearchParams,
  errors: FieldErrors,
  message?: SafeHtml | string,
): SafeHtml {
  const texts = page.texts;
  const hasSaved = page.customer.paymentMethod === 'valid';
  const useSaved = hasSaved && (form.get('method') ?? 'saved') === 'saved';
  return html`<h1>${texts.chargeTitle}</h1>
    ${typeof message === 'string' || Object.keys(errors).length > 0 ? errorSummary(page.lang, errors, typeof message === 'string' ? message : undefined) : message ? errorAlert(message) : ''}
    ${invoiceSummary(page, invoice)}
    <form method="post" action="${page.action}" novalidate class="card pay-form">
      ${
        hasSaved
          ? html`<fieldset>
              <legend>${texts.payNow}</legend>
              <label class="check"
                ><input
                  type="radio"
                  name="method"
                  value="saved"
                  ${useSaved ? html` checked` : ''}
                />
                ${texts.payWithSaved} (${page.customer.paymentMethodLabel ?? ''})</label
              >
              <label class="check"
                ><input type="radio" name="method" value="new" ${useSaved ? '' : html` checked`} />
                ${texts.payWithNew}</label
              >
            </fieldset>`
          : html`<input type="hidden" name="method" value="new" />`
      }
      <div class="new-card">
        ${cardFields(page.lang, form, errors)}
        <label class="check"
          ><input
            type="checkbox"
            name="saveCard"
            value="1"
            ${form.get('saveCard') === null && form.has('method') ? '' : html` checked`}
          />
          ${texts.saveCard}</label
        >
      </div>
      <div class="actions">
        <button type="submit">${texts.pay} ${page.money(invoice.amountTotal)}</button>
        <a class="button quiet" href="${page.link({ page: 'invoices' })}">${texts.invoices}</a>
      </div>
    </form>
    ${otherDueCard(page, otherDue(page, invoice))}`;
}

function paidPage(
  page: PageContext,
  invoice: InvoiceRecord,
  message: string,
  complete: boolean,
): Reply {
  const texts = page.texts;
  const { store } = page.ctx;
  const suspended = store
    .subscriptionsOf(page.customer.id)
    .find((s) => SUSPENDED_STATES.has(s.state));
  const capping = isCappingReached(store, page.customer, store.clock.nowMs());
  // The next invoice to pay leads while there is one; the restart is offered once none is left,
  // so that the page stays about paying (the embedding page's dialog is titled after that).
  const others = otherDue(page, invoice);
  const [next] = others;
  return page.render(
    texts.chargeTitle,
    html`<h1>${texts.chargeTitle}</h1>
      ${successAlert(message)}${invoiceSummary(page, invoice)} ${otherDueCard(page, others)}
      <div class="actions">
        ${next ? html`<a class="button" href="${page.link({ page: 'charge', i: next.id })}">${texts.payNext} ${next.number}</a>` : ''}
        ${suspended && !capping && !next ? html`<a class="button" href="${page.link({ page: 'restart', s: suspended.id })}">${texts.restart}</a>` : ''}
        <a class="button quiet" href="${page.link({ page: 'invoice', i: invoice.id })}"
          >${texts.viewInvoice} ${invoice.number}</a
        >
        <a class="button quiet" href="${page.link({ page: 'portal' })}">${texts.backToPortal}</a>
      </div>`,
    complete ? { complete: 'charge' } : {},
  );
}

export function chargePage(page: PageContext): Reply | null {
  const invoice = ownInvoice(page);
  if (!invoice) return null;
  if (invoice.state === 'Paid') return paidPage(page, invoice, page.texts.alreadyPaid, false);
  return page.render(page.texts.chargeTitle, chargeForm(page, invoice, new URLSearchParams(), {}));
}

export function chargeSubmit(page: PageContext, form: URLSearchParams): Reply | null {
  const invoice = ownInvoice(page);
  if (!invoice) return null;
  if (invoice.state === 'Paid') return paidPage(page, invoice, page.texts.alreadyPaid, false);
  const { store } = page.ctx;
  const useSaved = page.customer.paymentMethod === 'valid' && form.get('method') !== 'new';
  const values = new URLSearchParams(form);
  for (const key of ['cardNumber', 'cardCvc']) values.delete(key);
  let label: string | null = null;
  if (!useSaved) {
    const card = checkCard(form, store.clock.nowMs());
    if (Object.keys(card.errors).length > 0) {
      return page.render(page.texts.chargeTitle, chargeForm(page, invoice, values, card.errors), {
        status: 422,
      });
    }
    if (card.declined) {
      return page.render(
        page.texts.chargeTitle,
        chargeForm(page, invoice, values, {}, page.texts.declined),
        {
          status: 422,
        },
      );
    }
    label = card.label;
  }
  try {
    payInvoice(store, invoice);
  } catch (error) {
    if (error instanceof ApiError) {
      return page.render(
        page.texts.chargeTitle,
        chargeForm(page, invoice, values, {}, page.explain(error)),
        {
          status: error.status,
        },
      );
    }
    throw error;
  }
  if (label && form.get('saveCard') === '1') setPaymentMethod(store, page.customer, 'valid', label);
  return paidPage(page, invoice, page.texts.paid, true);
}

/**
 * The invoice's lines and what they add up to: each line (a discount's line names the discount,
 * with its negative amount) and the total. With tax, the lines are tax included, and the total
 * before tax and the tax (its rate when known) come before the total, adding up to it.
 */
function invoiceLinesTable(page: PageContext, invoice: InvoiceRecord): SafeHtml {
  const texts = page.texts;
  const tax = invoice.amountTotal - invoice.amountSubtotal;
  const rate =
    invoice.taxRate === undefined
      ? ''
      : ` (${new Intl.NumberFormat(page.lang === 'fr' ? 'fr-FR' : 'en-US', { style: 'percent', maximumFractionDigits: 2 }).format(invoice.taxRate / 10_000)})`;
  return html`<table class="invoice-lines">
    <thead>
      <tr>
        <th scope="col">${texts.description}</th>
        <th scope="col" class="num">${tax === 0 ? texts.amount : texts.amountTaxIncluded}</th>
      </tr>
    </thead>
    <tbody>
      ${invoice.lines.map(
        (line) =>
          html`<tr${line.discount ? html` data-discount` : ''}>
            <td>
              ${line.discount ? `${texts.discount}${texts.colon} ${line.label[page.lang]}` : line.label[page.lang]}
            </td>
            <td class="num">${page.money(line.amountTotal)}</td>
          </tr>`,
      )}
    </tbody>
    <tfoot>
      ${
        tax === 0
          ? ''
          : html`<tr data-before-tax>
                <th scope="row">${texts.beforeTax}</th>
                <td class="num">${page.money(invoice.amountSubtotal)}</td>
              </tr>
              <tr data-tax>
                <th scope="row">${texts.tax}${rate}</th>
                <td class="num">${page.money(tax)}</td>
              </tr>`
      }
      <tr data-total>
        <th scope="row">${texts.total}</th>
        <td class="num"><strong>${page.money(invoice.amountTotal)}</strong></td>
      </tr>
    </tfoot>
  </table>`;
}

export function invoicePage(page: PageContext): Reply | null {
  const invoice = ownInvoice(page);
  if (!invoice) return null;
  const texts = page.texts;
  const c = page.customer;
  const a = c.billingAddress;
  return page.render(
    `${texts.invoiceTitle} ${invoice.number}`,
    html`<h1>${texts.invoiceTitle} ${invoice.number} ${invoiceBadge(page, invoice)}</h1>
      <div class="card">
        <div class="grid">
          <div>
            <h2>${texts.billedTo}</h2>
            <p>
              ${[
                c.name,
                a?.Company,
                a?.AddressLine1,
                [a?.ZipCode, a?.City, a?.Country].filter(Boolean).join(' '),
                c.email,
              ]
                .filter((line) => line)
                .map((line, i) => (i === 0 ? html`${line}` : html`<br />${line}`))}
            </p>
          </div>
          <div>
            <p>
              ${texts.issued}${texts.colon} ${page.date(invoice.dateIssue)}<br />${texts.dueDate}${texts.colon}
              ${page.date(invoice.datePaymentLimit)}${
                invoice.datePaid
                  ? html`<br />${texts.paidOn}${texts.colon} ${page.date(invoice.datePaid)}`
                  : ''
              }
            </p>
          </div>
        </div>
        ${invoiceLinesTable(page, invoice)}
        <div class="actions">
          ${invoice.state === 'PaymentDue' ? html`<a class="button" href="${page.link({ page: 'charge', i: invoice.id })}">${texts.pay}</a>` : ''}
          <a class="button quiet" href="${page.link({ page: 'invoices' })}">${texts.invoices}</a>
        </div>
      </div>`,
  );
}

export function invoicesPage(page: PageContext): Reply {
  const texts = page.texts;
  const invoices = [...page.ctx.store.invoicesOf(page.customer.id)].reverse();
  return page.render(
    texts.invoicesTitle,
    html`<h1>${texts.invoicesTitle}</h1>
      <div class="card">${invoiceTable(page, invoices, texts.invoicesTitle)}</div>
      <p><a href="${page.link({ page: 'portal' })}">${texts.backToPortal}</a></p>`,
  );
}
