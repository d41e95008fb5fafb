import { localize, type CatalogOffer } from '../catalog.js';
import {
  completeSubscription,
  createSubscription,
  pendingSubscriptionOf,
  startedSubscriptionOf,
  restartSubscription,
  setPaymentMethod,
} from '../billing/operations.js';
import {
  applyOfferChange,
  assertPayable,
  planOfferChange,
  priceOfferChange,
  type OfferChangePlan,
} from '../billing/offer-change.js';
import { periodEndMs } from '../billing/periods.js';
import { recurringPrice } from '../billing/pricing.js';
import { iso } from '../clock.js';
import { isCappingReached, overdueInvoices, SUSPENDED_STATES } from '../billing/rules.js';
import { ApiError } from '../http/errors.js';
import type { Reply } from '../http/io.js';
import { perPeriod } from '../i18n.js';
import type { SubscriptionRecord } from '../state/types.js';
import { cardFields, checkCard, errorSummary, type FieldErrors } from './forms.js';
import { html, type SafeHtml } from './html.js';
import { subscriptionBadge } from './pages-account.js';
import { errorAlert, successAlert, type PageContext } from './page-context.js';

// Catalogue, subscribe, upgrade table (and custom-offer conclusion), restart.

/**
 * What a plan includes of a feature, as <plan-picker>'s cards say it: "Seats: 5", "Projects:
 * Unlimited", "Single sign-on: Included" (a feature the plan does not include is not listed).
 */
function offerFeatureLine(page: PageContext, offer: CatalogOffer, reference: string) {
  const def = page.ctx.catalog.features.get(reference);
  const terms = offer.features.find((feature) => feature.reference === reference);
  if (!def || !terms || terms.visible === false) return null;
  let value: string;
  if (def.type === 'OnOff') {
    if (!(terms.included ?? true)) return null;
    value = page.texts.offerIncluded;
  } else {
    const quantity = terms.quantityIncluded ?? 0;
    const number = new Intl.NumberFormat(page.lang === 'fr' ? 'fr-FR' : 'en-US');
    value = quantity === -1 ? page.texts.offerUnlimited : number.format(quantity);
  }
  return page.texts.offerFeature
    .replace('{title}', localize(def.title, page.lang))
    .replace('{value}', value);
}

function offerFeatures(page: PageContext, offer: CatalogOffer): SafeHtml {
  return html`<ul class="plain">
    ${offer.features.map((of) => {
      const line = offerFeatureLine(page, offer, of.reference);
      return line === null ? '' : html`<li>${line}</li>`;
    })}
  </ul>`;
}

function offerPrice(
  page: PageContext,
  offer: CatalogOffer,
  amount = offer.amountRecurrence,
): SafeHtml {
  return html`<p class="price">
    ${page.money(amount)}&nbsp;<small
      >${perPeriod(offer.durationRecurrence, offer.unitRecurrence, page.lang)}</small
    >
  </p>`;
}

/**
 * The customer's pending subscription when it is not the one `target` starts: a second
 * subscription is refused while one waits for its checkout (createSubscription says why).
 */
function otherPending(
  page: PageContext,
  target?: SubscriptionRecord | null,
): SubscriptionRecord | null {
  const pending = pendingSubscriptionOf(page.ctx.store, page.customer);
  return pending && pending.id !== target?.id ? pending : null;
}

function planTitle(page: PageContext, sub: SubscriptionRecord): string {
  const offer = page.ctx.catalog.offers.get(sub.offer);
  return offer ? localize(offer.title, page.lang) : sub.offer;
}

/** "Your subscription to Pro is waiting to be completed", with the way to complete it. */
function pendingNotice(page: PageContext, pending: SubscriptionRecord): SafeHtml {
  return html`<div class="alert info" role="status" data-pending-first>
    <p>${page.texts.pendingFirst.replace('{plan}', planTitle(page, pending))}</p>
    <div class="actions">
      <a class="button" href="${page.link({ page: 'subscribe', s: pending.id })}"
        >${page.texts.completeSubscription}</a
      >
    </div>
  </div>`;
}

/**
 * "You already have the Pro plan", with the way to change its plan: a customer has one
 * subscription, and a second one beside it would bill both.
 */
function startedNotice(page: PageContext, started: SubscriptionRecord): SafeHtml {
  return html`<div class="alert info" role="status" data-started-first>
    <p>${page.texts.startedFirst.replace('{plan}', planTitle(page, started))}</p>
    <div class="actions">
      <a class="button" href="${page.link({ page: 'upgrade', s: started.id })}"
        >${page.texts.changePlan}</a
      >
    </div>
  </div>`;
}

/** The notice that replaces every subscribe button: a started subscription, else a pending one. */
function subscribeBlocker(page: PageContext, target?: SubscriptionRecord | null): SafeHtml | null {
  const started = startedSubscriptionOf(page.ctx.store, page.customer);
  if (started && started.id !== target?.id) return startedNotice(page, started);
  const pending = otherPending(page, target);
  return pending ? pendingNotice(page, pending) : null;
}

export function offersPage(page: PageContext): Reply {
  const texts = page.texts;
  const blocker = subscribeBlocker(page);
  const body = html`<h1>${texts.offersTitle}</h1>
    <p class="lead">${texts.offersLead}</p>
    ${blocker ?? ''}
    <div class="grid">
      ${page.ctx.catalog.gridOffers().map(
        (offer) =>
          html`<section class="card" aria-labelledby="offer-${offer.reference}">
            <h2 id="offer-${offer.reference}">${localize(offer.title, page.lang)}</h2>
            ${offer.description ? html`<p class="hint">${localize(offer.description, page.lang)}</p>` : ''}
            ${offerPrice(page, offer)} ${offerFeatures(page, offer)}
            ${
              blocker
                ? ''
                : html`<a
                    class="button"
                    href="${page.link({ page: 'subscribe', o: offer.reference })}"
                    >${texts.subscribe}<span class="visually-hidden">
                      ${localize(offer.title, page.lang)}</span
                    ></a
                  >`
            }
          </section>`,
      )}
    </div>`;
  return page.render(texts.offersTitle, body);
}

function subscribeTarget(
  page: PageContext,
): { offer: CatalogOffer; sub: SubscriptionRecord | null } | null {
  const { store, catalog } = page.ctx;
  if (page.target.s !== undefined) {
    const sub = store.findSubscription(page.target.s);
    if (!sub || sub.customerId !== page.customer.id) return null;
    const offer = catalog.offers.get(sub.offer);
    return offer ? { offer, sub } : null;
  }
  const offer = page.target.o ? catalog.offers.get(page.target.o) : undefined;
  return offer ? { offer, sub: null } : null;
}

/**
 * What starting charges: the first period's price at once (the period starts today), then the
 * recurring price from the day it renews.
 */
function startCharge(page: PageContext, offer: CatalogOffer, amount: number): SafeHtml {
  const texts = page.texts;
  const renews = iso(periodEndMs(offer, page.ctx.store.clock.nowMs()));
  const price = `${page.money(amount)}\u00a0${perPeriod(offer.durationRecurrence, offer.unitRecurrence, page.lang)}`;
  return html`<section class="card" data-due-now>
    <p class="price"><small>${texts.dueNow}${texts.colon}</small> ${page.money(amount)}</p>
    <p class="hint">
      ${texts.thenFrom.replace('{price}', price).replace('{date}', page.date(renews))}
    </p>
  </section>`;
}

/** Completing a pending subscription, or subscribing to a plan chosen from the list. */
function subscribeTitle(page: PageContext, offer: CatalogOffer, sub: SubscriptionRecord | null) {
  if (sub) return page.texts.subscribeTitle;
  return page.texts.subscribeToTitle.replace('{plan}', localize(offer.title, page.lang));
}

function subscribeForm(
  page: PageContext,
  offer: CatalogOffer,
  sub: SubscriptionRecord | null,
  values: URLSearchParams,
  errors: FieldErrors,
  message?: SafeHtml | string,
): SafeHtml {
  const texts = page.texts;
  const needsCard = page.customer.paymentMethod !== 'valid';
  const amount = sub ? recurringPrice(page.ctx.catalog, sub).total : offer.amountRecurrence;
  return html`<h1>${subscribeTitle(page, offer, sub)}</h1>
    ${typeof message === 'string' || Object.keys(errors).length > 0 ? errorSummary(page.lang, errors, typeof message === 'string' ? message : undefined) : message ? errorAlert(message) : ''}
    <section class="card" aria-labelledby="offer-title">
      <h2 id="offer-title">${localize(offer.title, page.lang)}</h2>
      ${offerPrice(page, offer, amount)} ${offerFeatures(page, offer)}
    </section>
    ${startCharge(page, offer, amount)}
    <form method="post" action="${page.action}" novalidate class="card">
      ${needsCard ? cardFields(page.lang, values, errors) : html`<p>${texts.currentMethod}${texts.colon} <strong>${page.customer.paymentMethodLabel ?? ''}</strong></p>`}
      <div class="actions">
        <button type="submit">${sub ? texts.completeSubscription : texts.subscribe}</button>
      </div>
    </form>`;
}

export function subscribePage(page: PageContext): Reply | null {
  const target = subscribeTarget(page);
  if (!target) return null;
  if (target.sub && target.sub.state !== 'PendingSubscription')
    return portalRedirect(page, target.sub);
  const blocker = subscribeBlocker(page, target.sub);
  const title = subscribeTitle(page, target.offer, target.sub);
  if (blocker) return subscribeRefusal(page, title, blocker, 200);
  // A checkout left open while the customer subscribes elsewhere reads itself again when seen.
  return page.render(
    title,
    subscribeForm(page, target.offer, target.sub, new URLSearchParams(), {}),
    { recheck: true },
  );
}

function cappingError(): ApiError {
  return new ApiError(
    403,
    'Error.Customer.Billing.CappingReached',
    'Overdue invoices must be paid first.',
  );
}

/**
 * The subscribe page while another subscription has started or waits to start: no form, the
 * way to that one.
 */
function subscribeRefusal(
  page: PageContext,
  title: string,
  blocker: SafeHtml,
  status: number,
): Reply {
  return page.render(
    title,
    html`<h1>${title}</h1>
      ${blocker}`,
    { status },
  );
}

function portalRedirect(page: PageContext, sub: SubscriptionRecord): Reply {
  return { status: 303, headers: { location: page.link({ page: 'portal', s: sub.id }) }, body: '' };
}

export function subscribeSubmit(page: PageContext, form: URLSearchParams): Reply | null {
  const target = subscribeTarget(page);
  if (!target) return null;
  const { store } = page.ctx;
  if (target.sub && target.sub.state !== 'PendingSubscription')
    return portalRedirect(page, target.sub);
  // Refused before the card is read or saved: the refusal changes nothing.
  const blocker = subscribeBlocker(page, target.sub);
  const title = subscribeTitle(page, target.offer, target.sub);
  if (blocker) return subscribeRefusal(page, title, blocker, 409);
  const values = new URLSearchParams(form);
  for (const key of ['cardNumber', 'cardCvc']) values.delete(key);
  let label: string | null = null;
  if (page.customer.paymentMethod !== 'valid') {
    const card = checkCard(form, store.clock.nowMs());
    if (Object.keys(card.errors).length > 0) {
      return page.render(
        title,
        subscribeForm(page, target.offer, target.sub, values, card.errors),
        { status: 422, recheck: true },
      );
    }
    if (card.declined) {
      return page.render(
        title,
        subscribeForm(page, target.offer, target.sub, values, {}, page.texts.declined),
        { status: 422, recheck: true },
      );
    }
    label = card.label;
  }
  // Refuse before any change: a new subscription must not be left pending by a failed start.
  if (isCappingReached(store, page.customer, store.clock.nowMs())) {
    return page.render(
      title,
      subscribeForm(page, target.offer, target.sub, values, {}, page.explain(cappingError())),
      { status: 403 },
    );
  }
  if (label) setPaymentMethod(store, page.customer, 'valid', label);
  let sub: SubscriptionRecord;
  try {
    sub = target.sub ?? createSubscription(store, page.customer, target.offer);
    completeSubscription(store, sub);
  } catch (error) {
    return page.render(
      title,
      subscribeForm(page, target.offer, target.sub, values, {}, page.explain(error)),
      {
        status: error instanceof ApiError ? error.status : 400,
      },
    );
  }
  const texts = page.texts;
  return page.render(
    title,
    html`<h1>${title}</h1>
      ${successAlert(texts.subscribed)}
      <div class="actions">
        <a class="button" href="${page.link({ page: 'portal', s: sub.id })}"
          >${texts.backToPortal}</a
        >
      </div>`,
    { complete: 'subscribe' },
  );
}

function currentSubscription(page: PageContext): SubscriptionRecord | null {
  const { store } = page.ctx;
  const sub =
    page.target.s !== undefined
      ? store.findSubscription(page.target.s)
      : store.mainSubscription(page.customer.id);
  return sub && sub.customerId === page.customer.id ? sub : null;
}

interface Choice {
  key: string;
  title: string;
  offer: CatalogOffer;
  custom?: SubscriptionRecord;
  /** Sold on request: shown, not chosen here (the business prepares a custom subscription). */
  onRequest: boolean;
  recurring: number;
  dueNow: number;
  /** When the change would apply: now, or the end of the period (a downgrade). */
  immediate: boolean;
  dateEffective: string;
}

/** Every change of the table, priced as the change itself would charge it. */
function choices(page: PageContext, sub: SubscriptionRecord): Choice[] {
  const { catalog, store } = page.ctx;
  const nowMs = store.clock.nowMs();
  const choice = (
    key: string,
    title: string,
    offer: CatalogOffer,
    custom?: SubscriptionRecord,
  ): Choice => {
    const price = priceOfferChange(catalog, sub, { offer, custom }, {}, nowMs);
    return {
      key,
      title,
      offer,
      ...(custom ? { custom } : {}),
      onRequest: !custom && offer.onRequest,
      recurring: price.nextTerm.total,
      dueNow: price.amountTotalDue,
      immediate: price.immediate,
      dateEffective: price.dateEffective,
    };
  };
  const list = catalog
    .switchableOffers()
    .map((offer) => choice(`offer:${offer.reference}`, localize(offer.title, page.lang), offer));
  for (const custom of store.subscriptionsOf(page.customer.id)) {
    if (!custom.custom || custom.state !== 'PendingSubscription') continue;
    const offer = catalog.offers.get(custom.offer);
    if (!offer) continue;
    const title = `${page.texts.customOffer}${page.texts.colon} ${localize(offer.title, page.lang)}`;
    list.push(choice(`custom:${custom.id}`, title, offer, custom));
  }
  return list;
}

function upgradeBody(page: PageContext, sub: SubscriptionRecord, message?: SafeHtml): SafeHtml {
  const texts = page.texts;
  let list = choices(page, sub);
  const { o, t: targetId } = page.target;
  const single = o !== undefined || targetId !== undefined;
  if (o !== undefined) list = list.filter((c) => !c.custom && c.offer.reference === o);
  if (targetId !== undefined) list = list.filter((c) => c.custom?.id === targetId);
  const title = page.target.page === 'conclude' ? texts.concludeTitle : texts.upgradeTitle;
  const running = sub.state === 'Running';
  // One plan (a link chose it) is told what its change does; a table, what changes do.
  const only = single && list.length === 1 ? list[0] : undefined;
  const lead = !only
    ? texts.upgradeLead
    : only.immediate
      ? texts.upgradeLeadNow
      : texts.upgradeLeadLater;
  return html`<h1>${title}</h1>
    <p class="lead">${lead}</p>
    ${message ? errorAlert(message) : ''}
    ${!running ? html`<div class="alert info"><p>${subscriptionBadge(page, sub)}</p></div>` : ''}
    <div class="card">
      <table class="stack">
        <caption>
          ${single ? texts.confirmSwitch : texts.plans}
        </caption>
        <thead>
          <tr>
            <th scope="col">${texts.plan}</th>
            <th scope="col" class="num">${texts.price}</th>
            <th scope="col" class="num">${texts.dueNow}</th>
            <th scope="col">${texts.action}</th>
          </tr>
        </thead>
        <tbody>
          ${list.map((c) => {
            const current = !c.custom && c.offer.reference === sub.offer;
            return html`<tr${current ? html` class="current"` : ''}>
<th scope="row">${c.title}${c.onRequest ? html` <span class="badge">${texts.onRequest}</span>` : ''}</th>
<td class="num" data-label="${texts.price}">${c.onRequest ? texts.onRequest : html`${page.money(c.recurring)}&nbsp;<span class="hint">${perPeriod(c.offer.durationRecurrence, c.offer.unitRecurrence, page.lang)}</span>`}</td>
<td class="num" data-label="${texts.dueNow}">${current || c.onRequest ? '' : html`${page.money(c.dueNow)}${c.immediate ? '' : html` <span class="hint">${texts.changesOn} ${page.date(c.dateEffective)}</span>`}`}</td>
<td>${
              current
                ? html`<span class="badge ok">${texts.currentPlan}</span>`
                : c.onRequest
                  ? html`<span class="hint">${texts.askUs}</span>`
                  : html`<form method="post" action="${page.action}">
                      <input type="hidden" name="choice" value="${c.key}" />
                      <button type="submit" ${running ? '' : html` disabled`}>
                        ${texts.switchTo}<span class="visually-hidden"> ${c.title}</span>
                      </button>
                    </form>`
            }</td>
</tr>`;
          })}
        </tbody>
      </table>
    </div>
    <p><a href="${page.link({ page: 'portal', s: sub.id })}">${texts.backToPortal}</a></p>`;
}

export function upgradePage(page: PageContext): Reply | null {
  const sub = currentSubscription(page);
  if (!sub) return null;
  const title =
    page.target.page === 'conclude' ? page.texts.concludeTitle : page.texts.upgradeTitle;
  return page.render(title, upgradeBody(page, sub));
}

/**
 * The confirmation of a paid switch: the plan, what it costs now (or adds to the next invoice),
 * the recurring price that follows, and a button that names the amount. It posts the amount it
 * showed, so that a price that changed meanwhile is shown again rather than charged.
 */
function confirmBody(
  page: PageContext,
  sub: SubscriptionRecord,
  choice: Choice,
  plan: OfferChangePlan,
  changed: boolean,
): SafeHtml {
  const texts = page.texts;
  const amount = page.money(plan.amountTotal);
  const period = perPeriod(choice.offer.durationRecurrence, choice.offer.unitRecurrence, page.lang);
  return html`<h1>${texts.confirmTitle}</h1>
    ${changed ? errorAlert(html`${texts.priceChanged}`) : ''}
    <section class="card confirm" aria-labelledby="confirm-plan">
      <h2 id="confirm-plan">${choice.title}</h2>
      <p class="hint">${plan.billNow ? texts.dueNow : texts.addedToNextInvoice}</p>
      <p class="price">${amount}</p>
      <p>
        ${texts.recurringFrom} ${page.date(sub.periodEnd)}${texts.colon}
        <strong>${page.money(plan.nextTerm.total)}</strong>&nbsp;<span class="hint">${period}</span>
      </p>
      <form method="post" action="${page.action}">
        <input type="hidden" name="choice" value="${choice.key}" />
        <input type="hidden" name="confirm" value="1" />
        <input type="hidden" name="quoted" value="${String(plan.amountTotal)}" />
        <div class="actions">
          <button type="submit">
            ${plan.billNow ? `${texts.confirmAndPay} ${amount}` : texts.confirmChange}
          </button>
          <a class="button quiet" href="${page.link({ page: 'upgrade', s: sub.id })}"
            >${texts.backToPlans}</a
          >
        </div>
      </form>
    </section>`;
}

export function upgradeSubmit(page: PageContext, form: URLSearchParams): Reply | null {
  const sub = currentSubscription(page);
  if (!sub) return null;
  const title =
    page.target.page === 'conclude' ? page.texts.concludeTitle : page.texts.upgradeTitle;
  const choice = choices(page, sub).find((c) => c.key === form.get('choice') && !c.onRequest);
  if (!choice) {
    return page.render(title, upgradeBody(page, sub, html`${page.texts.fixErrors}`), {
      status: 422,
    });
  }
  let amount: number;
  let plan: OfferChangePlan;
  try {
    plan = planOfferChange(page.ctx.store, sub, { offer: choice.offer, custom: choice.custom });
    // A switch that costs something is confirmed first, at the price shown, and only once it
    // can be paid: a refusal comes before the question, not after it.
    if (plan.amountTotal > 0) {
      assertPayable(plan);
      const quoted = form.get('confirm') === '1' ? Number(form.get('quoted')) : undefined;
      if (quoted !== plan.amountTotal) {
        const changed = quoted !== undefined;
        return page.render(page.texts.confirmTitle, confirmBody(page, sub, choice, plan, changed), {
          status: changed ? 409 : 200,
        });
      }
    }
    amount = applyOfferChange(page.ctx.store, plan)?.amountTotal ?? 0;
  } catch (error) {
    return page.render(title, upgradeBody(page, sub, page.explain(error)), {
      status: error instanceof ApiError ? error.status : 400,
    });
  }
  const texts = page.texts;
  return page.render(
    title,
    html`<h1>${title}</h1>
      ${successAlert(plan.immediate ? texts.switched : `${texts.switchScheduled} ${page.date(plan.dateEffective)}.`)}
      <div class="card">
        <h2>${localize(choice.offer.title, page.lang)}</h2>
        ${offerPrice(page, choice.offer, plan.nextTerm.total)}
        ${amount > 0 ? html`<p>${texts.dueNow}${texts.colon} <strong>${page.money(amount)}</strong></p>` : ''}
      </div>
      <div class="actions">
        <a class="button" href="${page.link({ page: 'portal', s: sub.id })}"
          >${texts.backToPortal}</a
        >
      </div>`,
    { complete: 'upgrade' },
  );
}

/**
 * The restart page. "Restart now" only when a restart can work: while a valid payment method is
 * missing the page offers to add one, while overdue invoices block it, to pay them (the service
 * would refuse the restart either way, and the button would only lead to that refusal).
 */
function restartBody(page: PageContext, sub: SubscriptionRecord, message?: SafeHtml): SafeHtml {
  const texts = page.texts;
  const { store } = page.ctx;
  const nowMs = store.clock.nowMs();
  const capping = isCappingReached(store, page.customer, nowMs);
  const methodOk = page.customer.paymentMethod === 'valid';
  const overdue = overdueInvoices(store, page.customer, nowMs);
  return html`<h1>${texts.restartTitle}</h1>
    ${message ? errorAlert(message) : ''}
    <div class="card">
      <p>${texts.state}${texts.colon} ${subscriptionBadge(page, sub)}</p>
      ${
        overdue.length > 0
          ? html`<h2>${capping ? texts.restartBlockedCapping : texts.dueInvoices}</h2>
              <ul class="plain">
                ${overdue.map(
                  (i) =>
                    html`<li>
                      ${i.number} · ${page.money(i.amountTotal)} ·
                      <a href="${page.link({ page: 'charge', i: i.id })}"
                        >${texts.pay}<span class="visually-hidden"> ${i.number}</span></a
                      >
                    </li>`,
                )}
              </ul>`
          : ''
      }
      ${
        !methodOk
          ? html`<p>${texts.restartBlockedMethod}</p>
              <div class="actions">
                <a class="button" href="${page.link({ page: 'register' })}"
                  >${
                    page.customer.paymentMethod === 'invalid'
                      ? texts.updatePaymentMethod
                      : texts.addPaymentMethod
                  }</a
                >
              </div>`
          : capping
            ? ''
            : html`<p data-restart-cost>
                  ${texts.restartCost
                    .replace('{amount}', page.money(recurringPrice(page.ctx.catalog, sub).total))
                    .replace('{date}', page.date(sub.periodEnd))}
                </p>
                <form method="post" action="${page.action}">
                  <div class="actions"><button type="submit">${texts.restartNow}</button></div>
                </form>`
      }
    </div>`;
}

export function restartPage(page: PageContext): Reply | null {
  const sub = currentSubscription(page);
  if (!sub) return null;
  if (!SUSPENDED_STATES.has(sub.state)) {
    return page.render(
      page.texts.restartTitle,
      html`<h1>${page.texts.restartTitle}</h1>
        ${successAlert(page.texts.notSuspended)}
        <p>
          <a href="${page.link({ page: 'portal', s: sub.id })}">${page.texts.backToPortal}</a>
        </p>`,
    );
  }
  return page.render(page.texts.restartTitle, restartBody(page, sub));
}

export function restartSubmit(page: PageContext): Reply | null {
  const sub = currentSubscription(page);
  if (!sub) return null;
  const wasSuspended = SUSPENDED_STATES.has(sub.state);
  try {
    restartSubscription(page.ctx.store, sub);
  } catch (error) {
    return page.render(page.texts.restartTitle, restartBody(page, sub, page.explain(error)), {
      status: error instanceof ApiError ? error.status : 400,
    });
  }
  const texts = page.texts;
  return page.render(
    texts.restartTitle,
    html`<h1>${texts.restartTitle}</h1>
      ${successAlert(wasSuspended ? texts.restarted : texts.notSuspended)}
      <div class="actions">
        <a class="button" href="${page.link({ page: 'portal', s: sub.id })}"
          >${texts.backToPortal}</a
        >
      </div>`,
    wasSuspended ? { complete: 'restart' } : {},
  );
}
