import { localize } from '../catalog.js';
import {
  payInvoice,
  setBillingAddress,
  setPaymentMethod,
  upsertCustomer,
} from '../billing/operations.js';
import { isCappingReached, SUSPENDED_STATES } from '../billing/rules.js';
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

export function badge(pc: PageContext, state: string): SafeHtml {
  return html`<span class="${badgeClass(state)}">${stateLabel(state, pc.lang)}</span>`;
}

/**
 * A subscription's state as the customer reads it: one suspended for an invalid payment method
 * whose method has since been replaced is ready to restart (the service restarts nothing by
 * itself), and no longer says its payment method is invalid.
 */
export function subscriptionBadge(pc: PageContext, sub: SubscriptionRecord): SafeHtml {
  const replaced =
    sub.state === 'SuspendedPaymentMethodInvalid' && pc.customer.paymentMethod === 'valid';
  if (!replaced) return badge(pc, sub.state);
  return html`<span class="badge bad">${stateLabel('SuspendedReadyToRestart', pc.lang)}</span>`;
}

/** An invoice's state: a due one past its payment limit is overdue, not merely due. */
function invoiceBadge(pc: PageContext, invoice: InvoiceRecord): SafeHtml {
  const overdue =
    invoice.state === 'PaymentDue' &&
    Date.parse(invoice.datePaymentLimit) < pc.ctx.store.clock.nowMs();
  return badge(pc, overdue ? 'Overdue' : invoice.state);
}

function featureRows(pc: PageContext, sub: SubscriptionRecord): SafeHtml {
  const { catalog } = pc.ctx;
  const offer = catalog.offers.get(sub.offer);
  if (!offer) return html``;
  const number = new Intl.NumberFormat(pc.lang === 'fr' ? 'fr-FR' : 'en-US');
  return html`<table class="features">
    <caption>
      ${pc.t.features}
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
          if (!rec.enabled) value = included ? pc.t.turnedOff : pc.t.notIncluded;
          else if (pending) value = included ? pc.t.includedOnStart : pc.t.addOn;
          else if (suspended) value = pc.t.paused;
          else value = included ? pc.t.included : pc.t.addOn;
        } else if (total === -1) {
          value = `${number.format(used)} · ${pc.t.unlimited}`;
        } else if (def.type === 'Limitation' && used > total) {
          value = pc.t.split
            .replace('{used}', number.format(used))
            .replace('{total}', number.format(total))
            .replace('{extra}', number.format(used - total));
        } else {
          value = `${number.format(used)} ${pc.t.of} ${number.format(total)}${def.type === 'Consumption' ? ` ${pc.t.used}` : ''}`;
        }
        return html`<tr>
          <th scope="row">${localize(def.title, pc.lang)}</th>
          <td class="num">${value}</td>
        </tr>`;
      })}
    </tbody>
  </table>`;
}

function invoiceTable(pc: PageContext, invoices: InvoiceRecord[], caption: string): SafeHtml {
  const t = pc.t;
  if (invoices.length === 0) return html`<p>${t.noInvoices}</p>`;
  return html`<table class="stack">
    <caption>
      ${caption}
    </caption>
    <thead>
      <tr>
        <th scope="col">${t.number}</th>
        <th scope="col">${t.issued}</th>
        <th scope="col" class="num">${t.amount}</th>
        <th scope="col">${t.state}</th>
        <th scope="col">${t.action}</th>
      </tr>
    </thead>
    <tbody>
      ${invoices.map(
        (i) =>
          html`<tr>
            <td data-label="${t.number}">${i.number}</td>
            <td data-label="${t.issued}">${pc.date(i.dateIssue)}</td>
            <td class="num" data-label="${t.amount}">${pc.money(i.amountTotal)}</td>
            <td data-label="${t.state}">${invoiceBadge(pc, i)}</td>
            <td>
              <a href="${pc.link({ page: 'invoice', i: i.id })}"
                >${t.view}<span class="visually-hidden"> ${i.number}</span></a
              >${
                i.state === 'PaymentDue'
                  ? html` ·
                      <a href="${pc.link({ page: 'charge', i: i.id })}"
                        >${t.pay}<span class="visually-hidden"> ${i.number}</span></a
                      >`
                  : ''
              }
            </td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

export function portalPage(pc: PageContext): Reply {
  const { store, catalog } = pc.ctx;
  const t = pc.t;
  const sub = pc.target.s
    ? store.findSubscription(pc.target.s)
    : store.mainSubscription(pc.customer.id);
  const due = store.invoicesOf(pc.customer.id).filter((i) => i.state === 'PaymentDue');
  let body: SafeHtml;
  if (!sub || sub.customerId !== pc.customer.id) {
    body = html`<h1>${t.portalTitle}</h1>
      <div class="card">
        <p>${t.noSubscription}</p>
        <p><a class="button" href="${pc.link({ page: 'offers' })}">${t.seePlans}</a></p>
      </div>`;
  } else {
    const offer = catalog.offers.get(sub.offer);
    const price = recurringPrice(catalog, sub);
    const period = offer ? perPeriod(offer.durationRecurrence, offer.unitRecurrence, pc.lang) : '';
    const suspended = SUSPENDED_STATES.has(sub.state);
    // While overdue invoices reach the cap the service refuses a restart: the home offers to
    // pay them first (the payment page offers the restart once the cap is lifted).
    const capping = isCappingReached(store, pc.customer, store.clock.nowMs());
    const [oldestDue] = due;
    const scheduled = sub.offerAfterTerm ? catalog.offers.get(sub.offerAfterTerm) : undefined;
    body = html`<h1>${t.portalTitle}</h1>
      <div class="card">
        <h2>${offer ? localize(offer.title, pc.lang) : sub.offer} ${subscriptionBadge(pc, sub)}</h2>
        <p class="price">${pc.money(price.total)}&nbsp;<small>${period}</small></p>
        ${price.total !== price.subtotal ? html`<p class="hint">${t.discount}${t.colon} ${pc.money(price.subtotal - price.total)}</p>` : ''}
        <p class="hint">
          ${t.period}${t.colon} ${pc.date(sub.periodStart)} – ${pc.date(sub.periodEnd)}
        </p>
        ${scheduled ? html`<p class="hint">${t.planAfterTerm} ${localize(scheduled.title, pc.lang)}, ${pc.date(sub.periodEnd)}</p>` : ''}
        ${featureRows(pc, sub)}
        ${suspended && capping ? html`<div class="alert info" data-capping><p>${t.restartBlockedCapping}</p></div>` : ''}
        <div class="actions">
          ${sub.state === 'Running' ? html`<a class="button" href="${pc.link({ page: 'upgrade', s: sub.id })}">${t.changePlan}</a>` : ''}
          ${suspended && capping && oldestDue ? html`<a class="button" href="${pc.link({ page: 'charge', i: oldestDue.id })}">${t.payOverdue}</a>` : ''}
          ${suspended && !capping ? html`<a class="button" href="${pc.link({ page: 'restart', s: sub.id })}">${t.restart}</a>` : ''}
          ${sub.state === 'PendingSubscription' ? html`<a class="button" href="${pc.link({ page: 'subscribe', s: sub.id })}">${t.startSubscription}</a>` : ''}
          <a class="button quiet" href="${pc.link({ page: 'register' })}">${t.paymentDetails}</a>
          <a class="button quiet" href="${pc.link({ page: 'invoices' })}">${t.invoices}</a>
        </div>
      </div>
      ${due.length > 0 ? html`<div class="card">${invoiceTable(pc, due, t.dueInvoices)}</div>` : ''}`;
  }
  return pc.render(t.portalTitle, body);
}

function paymentMethodSummary(pc: PageContext): SafeHtml {
  const { t, customer } = pc;
  if (customer.paymentMethod === 'valid')
    return html`<p>
      ${t.currentMethod}${t.colon} <strong>${customer.paymentMethodLabel ?? ''}</strong>
    </p>`;
  if (customer.paymentMethod === 'invalid')
    return html`<div class="alert info"><p>${t.invalidMethod}</p></div>`;
  return html`<div class="alert info"><p>${t.noMethod}</p></div>`;
}

/** The contact and address fields: filled in from the customer, so they start folded away. */
const DETAIL_FIELDS = ['name', 'email', 'company', 'addressLine1', 'zipCode', 'city', 'country'];

/**
 * Adding a card asks for the card: its fields come first. The contact (already known) and the
 * billing address (optional) are folded beneath, open when one of them needs attention.
 */
function registerForm(
  pc: PageContext,
  values: URLSearchParams,
  errors: FieldErrors,
  message?: string,
): SafeHtml {
  const t = pc.t;
  const unfold =
    DETAIL_FIELDS.some((name) => errors[name]) ||
    !(values.get('name') ?? '').trim() ||
    !(values.get('email') ?? '').trim();
  return html`<h1>${t.registerTitle}</h1>
    <p class="lead">${t.registerLead}</p>
    ${errorSummary(pc.lang, errors, message)} ${paymentMethodSummary(pc)}
    <form method="post" action="${pc.action}" novalidate class="card">
      ${pc.customer.paymentMethod === 'valid' ? html`<p class="hint">${t.cardOptional}</p>` : ''}
      ${cardFields(pc.lang, values, errors)}
      <details class="more" ${unfold ? html` open` : ''}>
        <summary>${t.contactAndAddress}</summary>
        <fieldset>
          <legend>${t.contact}</legend>
          ${field({ name: 'name', label: 'name', autocomplete: 'name', required: true }, pc.lang, values, errors)}
          ${field({ name: 'email', label: 'email', type: 'email', autocomplete: 'email', required: true }, pc.lang, values, errors)}
        </fieldset>
        <fieldset>
          <legend>${t.address}</legend>
          <p class="hint">${t.addressOptional}</p>
          ${field({ name: 'company', label: 'company', autocomplete: 'organization' }, pc.lang, values, errors)}
          ${field({ name: 'addressLine1', label: 'addressLine1', autocomplete: 'address-line1' }, pc.lang, values, errors)}
          <div class="row">
            ${field({ name: 'zipCode', label: 'zipCode', autocomplete: 'postal-code' }, pc.lang, values, errors)}
            ${field({ name: 'city', label: 'city', autocomplete: 'address-level2' }, pc.lang, values, errors)}
          </div>
          ${countryField(pc.lang, values, errors)}
        </fieldset>
      </details>
      <div class="actions">
        <button type="submit">${t.save}</button>
        <a class="button quiet" href="${pc.link({ page: 'portal' })}">${t.backToPortal}</a>
      </div>
    </form>`;
}

export function registerPage(pc: PageContext): Reply {
  const c = pc.customer;
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
  return pc.render(pc.t.registerTitle, registerForm(pc, values, {}));
}

export function registerSubmit(pc: PageContext, form: URLSearchParams): Reply {
  const errors: FieldErrors = {};
  const name = (form.get('name') ?? '').trim();
  const email = (form.get('email') ?? '').trim();
  const country = (form.get('country') ?? '').trim().toUpperCase();
  if (!name) errors.name = 'required';
  if (!email) errors.email = 'required';
  else if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) errors.email = 'invalidEmail';
  // The list's codes, or the one already on file (kept when the form is saved unchanged).
  const stored = pc.customer.billingAddress?.Country;
  if (country && !COUNTRY_CODES.has(country) && country !== stored)
    errors.country = 'invalidCountry';
  // With a valid card on file, blank card fields keep it (contact or address update only).
  const keepCard =
    pc.customer.paymentMethod === 'valid' &&
    ['cardHolder', 'cardNumber', 'cardExpiry', 'cardCvc'].every((k) => !(form.get(k) ?? '').trim());
  const card = keepCard ? null : checkCard(form, pc.ctx.store.clock.nowMs());
  if (card) Object.assign(errors, card.errors);
  // Card data is never echoed back into the page.
  const values = new URLSearchParams(form);
  for (const key of ['cardNumber', 'cardCvc']) values.delete(key);
  if (Object.keys(errors).length > 0) {
    return pc.render(pc.t.registerTitle, registerForm(pc, values, errors), { status: 422 });
  }
  if (card?.declined) {
    return pc.render(pc.t.registerTitle, registerForm(pc, values, {}, pc.t.declined), {
      status: 422,
    });
  }
  const { store } = pc.ctx;
  const c = pc.customer;
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
  const t = pc.t;
  return pc.render(
    t.registerTitle,
    html`<h1>${t.registerTitle}</h1>
      ${successAlert(t.saved)} ${paymentMethodSummary(pc)}
      <div class="actions">
        ${suspended ? html`<a class="button" href="${pc.link({ page: 'restart', s: suspended.id })}">${t.restart}</a>` : ''}
        <a class="button quiet" href="${pc.link({ page: 'portal' })}">${t.backToPortal}</a>
      </div>`,
    { complete: 'register' },
  );
}

function ownInvoice(pc: PageContext): InvoiceRecord | null {
  const id = pc.target.i;
  if (id === undefined) return null;
  const invoice = pc.ctx.store.invoicesOf(pc.customer.id).find((i) => i.id === id);
  return invoice ?? null;
}

function invoiceSummary(pc: PageContext, invoice: InvoiceRecord): SafeHtml {
  const t = pc.t;
  return html`<dl class="card">
    <div>
      <dt>${t.number}</dt>
      <dd>${invoice.number}</dd>
    </div>
    <div>
      <dt>${t.amount}</dt>
      <dd class="price">${pc.money(invoice.amountTotal)}</dd>
    </div>
    <div>
      <dt>${t.dueDate}</dt>
      <dd>${pc.date(invoice.datePaymentLimit)}</dd>
    </div>
    <div>
      <dt>${t.state}</dt>
      <dd>${invoiceBadge(pc, invoice)}</dd>
    </div>
  </dl>`;
}

/** The customer's other invoices still to pay, oldest first. */
function otherDue(pc: PageContext, invoice: InvoiceRecord): InvoiceRecord[] {
  return pc.ctx.store
    .invoicesOf(pc.customer.id)
    .filter((i) => i.state === 'PaymentDue' && i.id !== invoice.id);
}

/**
 * The other invoices to pay, each with its Pay link: settling overdue invoices starts with one
 * of them, and the page says how many more there are rather than only the first.
 */
function otherDueCard(pc: PageContext, others: InvoiceRecord[]): SafeHtml {
  if (others.length === 0) return html``;
  const t = pc.t;
  const total = others.reduce((sum, i) => sum + i.amountTotal, 0);
  return html`<section class="card" aria-labelledby="other-due" data-other-due>
    <h2 id="other-due">
      ${t.alsoToPay.replace('{count}', String(others.length)).replace('{amount}', pc.money(total))}
    </h2>
    <ul class="plain">
      ${others.map(
        (i) =>
          html`<li>
            ${i.number} · ${pc.money(i.amountTotal)} · ${invoiceBadge(pc, i)} ·
            <a href="${pc.link({ page: 'charge', i: i.id })}"
              >${t.pay}<span class="visually-hidden"> ${i.number}</span></a
            >
          </li>`,
      )}
    </ul>
  </section>`;
}

function chargeForm(
  pc: PageContext,
  invoice: InvoiceRecord,
  form: URLSearchParams,
  errors: FieldErrors,
  message?: SafeHtml | string,
): SafeHtml {
  const t = pc.t;
  const hasSaved = pc.customer.paymentMethod === 'valid';
  const useSaved = hasSaved && (form.get('method') ?? 'saved') === 'saved';
  return html`<h1>${t.chargeTitle}</h1>
    ${typeof message === 'string' || Object.keys(errors).length > 0 ? errorSummary(pc.lang, errors, typeof message === 'string' ? message : undefined) : message ? errorAlert(message) : ''}
    ${invoiceSummary(pc, invoice)}
    <form method="post" action="${pc.action}" novalidate class="card pay-form">
      ${
        hasSaved
          ? html`<fieldset>
              <legend>${t.payNow}</legend>
              <label class="check"
                ><input
                  type="radio"
                  name="method"
                  value="saved"
                  ${useSaved ? html` checked` : ''}
                />
                ${t.payWithSaved} (${pc.customer.paymentMethodLabel ?? ''})</label
              >
              <label class="check"
                ><input type="radio" name="method" value="new" ${useSaved ? '' : html` checked`} />
                ${t.payWithNew}</label
              >
            </fieldset>`
          : html`<input type="hidden" name="method" value="new" />`
      }
      <div class="new-card">
        ${cardFields(pc.lang, form, errors)}
        <label class="check"
          ><input
            type="checkbox"
            name="saveCard"
            value="1"
            ${form.get('saveCard') === null && form.has('method') ? '' : html` checked`}
          />
          ${t.saveCard}</label
        >
      </div>
      <div class="actions">
        <button type="submit">${t.pay} ${pc.money(invoice.amountTotal)}</button>
        <a class="button quiet" href="${pc.link({ page: 'invoices' })}">${t.invoices}</a>
      </div>
    </form>
    ${otherDueCard(pc, otherDue(pc, invoice))}`;
}

function paidPage(
  pc: PageContext,
  invoice: InvoiceRecord,
  message: string,
  complete: boolean,
): Reply {
  const t = pc.t;
  const { store } = pc.ctx;
  const suspended = store
    .subscriptionsOf(pc.customer.id)
    .find((s) => SUSPENDED_STATES.has(s.state));
  const capping = isCappingReached(store, pc.customer, store.clock.nowMs());
  // The next invoice to pay leads while there is one; the restart follows once none is left.
  const others = otherDue(pc, invoice);
  const [next] = others;
  return pc.render(
    t.chargeTitle,
    html`<h1>${t.chargeTitle}</h1>
      ${successAlert(message)}${invoiceSummary(pc, invoice)} ${otherDueCard(pc, others)}
      <div class="actions">
        ${next ? html`<a class="button" href="${pc.link({ page: 'charge', i: next.id })}">${t.payNext} ${next.number}</a>` : ''}
        ${suspended && !capping ? html`<a class="button${next ? ' quiet' : ''}" href="${pc.link({ page: 'restart', s: suspended.id })}">${t.restart}</a>` : ''}
        <a class="button quiet" href="${pc.link({ page: 'invoice', i: invoice.id })}"
          >${t.invoiceTitle} ${invoice.number}</a
        >
        <a class="button quiet" href="${pc.link({ page: 'portal' })}">${t.backToPortal}</a>
      </div>`,
    complete ? { complete: 'charge' } : {},
  );
}

export function chargePage(pc: PageContext): Reply | null {
  const invoice = ownInvoice(pc);
  if (!invoice) return null;
  if (invoice.state === 'Paid') return paidPage(pc, invoice, pc.t.alreadyPaid, false);
  return pc.render(pc.t.chargeTitle, chargeForm(pc, invoice, new URLSearchParams(), {}));
}

export function chargeSubmit(pc: PageContext, form: URLSearchParams): Reply | null {
  const invoice = ownInvoice(pc);
  if (!invoice) return null;
  if (invoice.state === 'Paid') return paidPage(pc, invoice, pc.t.alreadyPaid, false);
  const { store } = pc.ctx;
  const useSaved = pc.customer.paymentMethod === 'valid' && form.get('method') !== 'new';
  const values = new URLSearchParams(form);
  for (const key of ['cardNumber', 'cardCvc']) values.delete(key);
  let label: string | null = null;
  if (!useSaved) {
    const card = checkCard(form, store.clock.nowMs());
    if (Object.keys(card.errors).length > 0) {
      return pc.render(pc.t.chargeTitle, chargeForm(pc, invoice, values, card.errors), {
        status: 422,
      });
    }
    if (card.declined) {
      return pc.render(pc.t.chargeTitle, chargeForm(pc, invoice, values, {}, pc.t.declined), {
        status: 422,
      });
    }
    label = card.label;
  }
  try {
    payInvoice(store, invoice);
  } catch (error) {
    if (error instanceof ApiError) {
      return pc.render(pc.t.chargeTitle, chargeForm(pc, invoice, values, {}, pc.explain(error)), {
        status: error.status,
      });
    }
    throw error;
  }
  if (label && form.get('saveCard') === '1') setPaymentMethod(store, pc.customer, 'valid', label);
  return paidPage(pc, invoice, pc.t.paid, true);
}

export function invoicePage(pc: PageContext): Reply | null {
  const invoice = ownInvoice(pc);
  if (!invoice) return null;
  const t = pc.t;
  const c = pc.customer;
  const a = c.billingAddress;
  return pc.render(
    `${t.invoiceTitle} ${invoice.number}`,
    html`<h1>${t.invoiceTitle} ${invoice.number} ${invoiceBadge(pc, invoice)}</h1>
      <div class="card">
        <div class="grid">
          <div>
            <h2>${t.billedTo}</h2>
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
              ${t.issued}${t.colon} ${pc.date(invoice.dateIssue)}<br />${t.dueDate}${t.colon}
              ${pc.date(invoice.datePaymentLimit)}${
                invoice.datePaid
                  ? html`<br />${t.paidOn}${t.colon} ${pc.date(invoice.datePaid)}`
                  : ''
              }
            </p>
          </div>
        </div>
        <table>
          <thead>
            <tr>
              <th scope="col">${t.description}</th>
              <th scope="col" class="num">${t.amount}</th>
            </tr>
          </thead>
          <tbody>
            ${invoice.lines.map(
              (l) =>
                html`<tr>
                  <td>${l.label[pc.lang]}</td>
                  <td class="num">${pc.money(l.amountSubtotal)}</td>
                </tr>`,
            )}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">${t.subtotal}</th>
              <td class="num">${pc.money(invoice.amountSubtotal)}</td>
            </tr>
            ${
              invoice.amountSubtotal !== invoice.amountTotal
                ? html`<tr>
                    <th scope="row">${t.discount}</th>
                    <td class="num">${pc.money(invoice.amountTotal - invoice.amountSubtotal)}</td>
                  </tr>`
                : ''
            }
            <tr>
              <th scope="row">${t.total}</th>
              <td class="num"><strong>${pc.money(invoice.amountTotal)}</strong></td>
            </tr>
          </tfoot>
        </table>
        <div class="actions">
          ${invoice.state === 'PaymentDue' ? html`<a class="button" href="${pc.link({ page: 'charge', i: invoice.id })}">${t.pay}</a>` : ''}
          <a class="button quiet" href="${pc.link({ page: 'invoices' })}">${t.invoices}</a>
        </div>
      </div>`,
  );
}

export function invoicesPage(pc: PageContext): Reply {
  const t = pc.t;
  const invoices = [...pc.ctx.store.invoicesOf(pc.customer.id)].reverse();
  return pc.render(
    t.invoicesTitle,
    html`<h1>${t.invoicesTitle}</h1>
      <div class="card">${invoiceTable(pc, invoices, t.invoicesTitle)}</div>
      <p><a href="${pc.link({ page: 'portal' })}">${t.backToPortal}</a></p>`,
  );
}
