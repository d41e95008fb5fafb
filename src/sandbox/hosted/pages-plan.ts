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
import { recurringPrice } from '../billing/pricing.js';
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

function offerFeatures(pc: PageContext, offer: CatalogOffer): SafeHtml {
  const { catalog } = pc.ctx;
  const number = new Intl.NumberFormat(pc.lang === 'fr' ? 'fr-FR' : 'en-US');
  return html`<ul class="plain">
    ${offer.features.map((of) => {
      const def = catalog.features.get(of.reference);
      if (!def || of.visible === false) return '';
      const title = localize(def.title, pc.lang);
      if (def.type === 'OnOff') return (of.included ?? true) ? html`<li>✓ ${title}</li>` : '';
      const q = of.quantityIncluded ?? 0;
      return html`<li>${q === -1 ? pc.t.unlimited : number.format(q)} · ${title}</li>`;
    })}
  </ul>`;
}

function offerPrice(
  pc: PageContext,
  offer: CatalogOffer,
  amount = offer.amountRecurrence,
): SafeHtml {
  return html`<p class="price">
    ${pc.money(amount)}&nbsp;<small
      >${perPeriod(offer.durationRecurrence, offer.unitRecurrence, pc.lang)}</small
    >
  </p>`;
}

/**
 * The customer's pending subscription when it is not the one `target` starts: a second
 * subscription is refused while one waits for its checkout (createSubscription says why).
 */
function otherPending(
  pc: PageContext,
  target?: SubscriptionRecord | null,
): SubscriptionRecord | null {
  const pending = pendingSubscriptionOf(pc.ctx.store, pc.customer);
  return pending && pending.id !== target?.id ? pending : null;
}

function planTitle(pc: PageContext, sub: SubscriptionRecord): string {
  const offer = pc.ctx.catalog.offers.get(sub.offer);
  return offer ? localize(offer.title, pc.lang) : sub.offer;
}

/** "Your subscription to Pro is waiting to start", with the way to complete it. */
function pendingNotice(pc: PageContext, pending: SubscriptionRecord): SafeHtml {
  return html`<div class="alert info" role="status" data-pending-first>
    <p>${pc.t.pendingFirst.replace('{plan}', planTitle(pc, pending))}</p>
    <div class="actions">
      <a class="button" href="${pc.link({ page: 'subscribe', s: pending.id })}"
        >${pc.t.startSubscription}</a
      >
    </div>
  </div>`;
}

/**
 * "You already subscribe to Pro", with the way to change its plan: a customer has one
 * subscription, and a second one beside it would bill both.
 */
function startedNotice(pc: PageContext, started: SubscriptionRecord): SafeHtml {
  return html`<div class="alert info" role="status" data-started-first>
    <p>${pc.t.startedFirst.replace('{plan}', planTitle(pc, started))}</p>
    <div class="actions">
      <a class="button" href="${pc.link({ page: 'upgrade', s: started.id })}">${pc.t.changePlan}</a>
    </div>
  </div>`;
}

/** The notice that replaces every subscribe button: a started subscription, else a pending one. */
function subscribeBlocker(pc: PageContext, target?: SubscriptionRecord | null): SafeHtml | null {
  const started = startedSubscriptionOf(pc.ctx.store, pc.customer);
  if (started && started.id !== target?.id) return startedNotice(pc, started);
  const pending = otherPending(pc, target);
  return pending ? pendingNotice(pc, pending) : null;
}

export function offersPage(pc: PageContext): Reply {
  const t = pc.t;
  const blocker = subscribeBlocker(pc);
  const body = html`<h1>${t.offersTitle}</h1>
    <p class="lead">${t.offersLead}</p>
    ${blocker ?? ''}
    <div class="grid">
      ${pc.ctx.catalog.gridOffers().map(
        (offer) =>
          html`<section class="card" aria-labelledby="offer-${offer.reference}">
            <h2 id="offer-${offer.reference}">${localize(offer.title, pc.lang)}</h2>
            ${offer.description ? html`<p class="hint">${localize(offer.description, pc.lang)}</p>` : ''}
            ${offerPrice(pc, offer)} ${offerFeatures(pc, offer)}
            ${
              blocker
                ? ''
                : html`<a
                    class="button"
                    href="${pc.link({ page: 'subscribe', o: offer.reference })}"
                    >${t.subscribe}<span class="visually-hidden">
                      ${localize(offer.title, pc.lang)}</span
                    ></a
                  >`
            }
          </section>`,
      )}
    </div>`;
  return pc.render(t.offersTitle, body);
}

function subscribeTarget(
  pc: PageContext,
): { offer: CatalogOffer; sub: SubscriptionRecord | null } | null {
  const { store, catalog } = pc.ctx;
  if (pc.target.s !== undefined) {
    const sub = store.findSubscription(pc.target.s);
    if (!sub || sub.customerId !== pc.customer.id) return null;
    const offer = catalog.offers.get(sub.offer);
    return offer ? { offer, sub } : null;
  }
  const offer = pc.target.o ? catalog.offers.get(pc.target.o) : undefined;
  return offer ? { offer, sub: null } : null;
}

function subscribeForm(
  pc: PageContext,
  offer: CatalogOffer,
  sub: SubscriptionRecord | null,
  values: URLSearchParams,
  errors: FieldErrors,
  message?: SafeHtml | string,
): SafeHtml {
  const t = pc.t;
  const needsCard = pc.customer.paymentMethod !== 'valid';
  const amount = sub ? recurringPrice(pc.ctx.catalog, sub).total : offer.amountRecurrence;
  return html`<h1>${t.subscribeTitle}</h1>
    ${typeof message === 'string' || Object.keys(errors).length > 0 ? errorSummary(pc.lang, errors, typeof message === 'string' ? message : undefined) : message ? errorAlert(message) : ''}
    <section class="card" aria-labelledby="offer-title">
      <h2 id="offer-title">${localize(offer.title, pc.lang)}</h2>
      ${offerPrice(pc, offer, amount)} ${offerFeatures(pc, offer)}
    </section>
    <form method="post" action="${pc.action}" novalidate class="card">
      ${needsCard ? cardFields(pc.lang, values, errors) : html`<p>${t.currentMethod}${t.colon} <strong>${pc.customer.paymentMethodLabel ?? ''}</strong></p>`}
      <div class="actions"><button type="submit">${t.startSubscription}</button></div>
    </form>`;
}

export function subscribePage(pc: PageContext): Reply | null {
  const target = subscribeTarget(pc);
  if (!target) return null;
  if (target.sub && target.sub.state !== 'PendingSubscription')
    return portalRedirect(pc, target.sub);
  const blocker = subscribeBlocker(pc, target.sub);
  if (blocker) return subscribeRefusal(pc, blocker, 200);
  return pc.render(
    pc.t.subscribeTitle,
    subscribeForm(pc, target.offer, target.sub, new URLSearchParams(), {}),
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
function subscribeRefusal(pc: PageContext, blocker: SafeHtml, status: number): Reply {
  return pc.render(
    pc.t.subscribeTitle,
    html`<h1>${pc.t.subscribeTitle}</h1>
      ${blocker}`,
    { status },
  );
}

function portalRedirect(pc: PageContext, sub: SubscriptionRecord): Reply {
  return { status: 303, headers: { location: pc.link({ page: 'portal', s: sub.id }) }, body: '' };
}

export function subscribeSubmit(pc: PageContext, form: URLSearchParams): Reply | null {
  const target = subscribeTarget(pc);
  if (!target) return null;
  const { store } = pc.ctx;
  if (target.sub && target.sub.state !== 'PendingSubscription')
    return portalRedirect(pc, target.sub);
  // Refused before the card is read or saved: the refusal changes nothing.
  const blocker = subscribeBlocker(pc, target.sub);
  if (blocker) return subscribeRefusal(pc, blocker, 409);
  const values = new URLSearchParams(form);
  for (const key of ['cardNumber', 'cardCvc']) values.delete(key);
  let label: string | null = null;
  if (pc.customer.paymentMethod !== 'valid') {
    const card = checkCard(form, store.clock.nowMs());
    if (Object.keys(card.errors).length > 0) {
      return pc.render(
        pc.t.subscribeTitle,
        subscribeForm(pc, target.offer, target.sub, values, card.errors),
        { status: 422 },
      );
    }
    if (card.declined) {
      return pc.render(
        pc.t.subscribeTitle,
        subscribeForm(pc, target.offer, target.sub, values, {}, pc.t.declined),
        { status: 422 },
      );
    }
    label = card.label;
  }
  // Refuse before any change: a new subscription must not be left pending by a failed start.
  if (isCappingReached(store, pc.customer, store.clock.nowMs())) {
    return pc.render(
      pc.t.subscribeTitle,
      subscribeForm(pc, target.offer, target.sub, values, {}, pc.explain(cappingError())),
      { status: 403 },
    );
  }
  if (label) setPaymentMethod(store, pc.customer, 'valid', label);
  let sub: SubscriptionRecord;
  try {
    sub = target.sub ?? createSubscription(store, pc.customer, target.offer);
    completeSubscription(store, sub);
  } catch (error) {
    return pc.render(
      pc.t.subscribeTitle,
      subscribeForm(pc, target.offer, target.sub, values, {}, pc.explain(error)),
      {
        status: error instanceof ApiError ? error.status : 400,
      },
    );
  }
  const t = pc.t;
  return pc.render(
    t.subscribeTitle,
    html`<h1>${t.subscribeTitle}</h1>
      ${successAlert(t.subscribed)}
      <div class="actions">
        <a class="button" href="${pc.link({ page: 'portal', s: sub.id })}">${t.backToPortal}</a>
      </div>`,
    { complete: 'subscribe' },
  );
}

function currentSubscription(pc: PageContext): SubscriptionRecord | null {
  const { store } = pc.ctx;
  const sub =
    pc.target.s !== undefined
      ? store.findSubscription(pc.target.s)
      : store.mainSubscription(pc.customer.id);
  return sub && sub.customerId === pc.customer.id ? sub : null;
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
function choices(pc: PageContext, sub: SubscriptionRecord): Choice[] {
  const { catalog, store } = pc.ctx;
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
    .map((offer) => choice(`offer:${offer.reference}`, localize(offer.title, pc.lang), offer));
  for (const custom of store.subscriptionsOf(pc.customer.id)) {
    if (!custom.custom || custom.state !== 'PendingSubscription') continue;
    const offer = catalog.offers.get(custom.offer);
    if (!offer) continue;
    const title = `${pc.t.customOffer}${pc.t.colon} ${localize(offer.title, pc.lang)}`;
    list.push(choice(`custom:${custom.id}`, title, offer, custom));
  }
  return list;
}

function upgradeBody(pc: PageContext, sub: SubscriptionRecord, message?: SafeHtml): SafeHtml {
  const t = pc.t;
  let list = choices(pc, sub);
  const { o, t: targetId } = pc.target;
  const single = o !== undefined || targetId !== undefined;
  if (o !== undefined) list = list.filter((c) => !c.custom && c.offer.reference === o);
  if (targetId !== undefined) list = list.filter((c) => c.custom?.id === targetId);
  const title = pc.target.page === 'conclude' ? t.concludeTitle : t.upgradeTitle;
  const running = sub.state === 'Running';
  return html`<h1>${title}</h1>
    <p class="lead">${t.upgradeLead}</p>
    ${message ? errorAlert(message) : ''}
    ${!running ? html`<div class="alert info"><p>${subscriptionBadge(pc, sub)}</p></div>` : ''}
    <div class="card">
      <table class="stack">
        <caption>
          ${single ? t.confirmSwitch : t.plans}
        </caption>
        <thead>
          <tr>
            <th scope="col">${t.plan}</th>
            <th scope="col" class="num">${t.price}</th>
            <th scope="col" class="num">${t.dueNow}</th>
            <th scope="col">${t.action}</th>
          </tr>
        </thead>
        <tbody>
          ${list.map((c) => {
            const current = !c.custom && c.offer.reference === sub.offer;
            return html`<tr${current ? html` class="current"` : ''}>
<th scope="row">${c.title}${c.onRequest ? html` <span class="badge">${t.onRequest}</span>` : ''}</th>
<td class="num" data-label="${t.price}">${c.onRequest ? t.onRequest : html`${pc.money(c.recurring)}&nbsp;<span class="hint">${perPeriod(c.offer.durationRecurrence, c.offer.unitRecurrence, pc.lang)}</span>`}</td>
<td class="num" data-label="${t.dueNow}">${current || c.onRequest ? '' : html`${pc.money(c.dueNow)}${c.immediate ? '' : html` <span class="hint">${t.changesOn} ${pc.date(c.dateEffective)}</span>`}`}</td>
<td>${
              current
                ? html`<span class="badge ok">${t.currentPlan}</span>`
                : c.onRequest
                  ? html`<span class="hint">${t.askUs}</span>`
                  : html`<form method="post" action="${pc.action}">
                      <input type="hidden" name="choice" value="${c.key}" />
                      <button type="submit" ${running ? '' : html` disabled`}>
                        ${t.switchTo}<span class="visually-hidden"> ${c.title}</span>
                      </button>
                    </form>`
            }</td>
</tr>`;
          })}
        </tbody>
      </table>
    </div>
    <p><a href="${pc.link({ page: 'portal', s: sub.id })}">${t.backToPortal}</a></p>`;
}

export function upgradePage(pc: PageContext): Reply | null {
  const sub = currentSubscription(pc);
  if (!sub) return null;
  const title = pc.target.page === 'conclude' ? pc.t.concludeTitle : pc.t.upgradeTitle;
  return pc.render(title, upgradeBody(pc, sub));
}

/**
 * The confirmation of a paid switch: the plan, what it costs now (or adds to the next invoice),
 * the recurring price that follows, and a button that names the amount. It posts the amount it
 * showed, so that a price that changed meanwhile is shown again rather than charged.
 */
function confirmBody(
  pc: PageContext,
  sub: SubscriptionRecord,
  choice: Choice,
  plan: OfferChangePlan,
  changed: boolean,
): SafeHtml {
  const t = pc.t;
  const amount = pc.money(plan.amountTotal);
  const period = perPeriod(choice.offer.durationRecurrence, choice.offer.unitRecurrence, pc.lang);
  return html`<h1>${t.confirmTitle}</h1>
    ${changed ? errorAlert(html`${t.priceChanged}`) : ''}
    <section class="card confirm" aria-labelledby="confirm-plan">
      <h2 id="confirm-plan">${choice.title}</h2>
      <p class="hint">${plan.billNow ? t.dueNow : t.addedToNextInvoice}</p>
      <p class="price">${amount}</p>
      <p>
        ${t.recurringFrom} ${pc.date(sub.periodEnd)}${t.colon}
        <strong>${pc.money(plan.nextTerm.total)}</strong>&nbsp;<span class="hint">${period}</span>
      </p>
      <form method="post" action="${pc.action}">
        <input type="hidden" name="choice" value="${choice.key}" />
        <input type="hidden" name="confirm" value="1" />
        <input type="hidden" name="quoted" value="${String(plan.amountTotal)}" />
        <div class="actions">
          <button type="submit">
            ${plan.billNow ? `${t.confirmAndPay} ${amount}` : t.confirmChange}
          </button>
          <a class="button quiet" href="${pc.link({ page: 'upgrade', s: sub.id })}"
            >${t.backToPlans}</a
          >
        </div>
      </form>
    </section>`;
}

export function upgradeSubmit(pc: PageContext, form: URLSearchParams): Reply | null {
  const sub = currentSubscription(pc);
  if (!sub) return null;
  const title = pc.target.page === 'conclude' ? pc.t.concludeTitle : pc.t.upgradeTitle;
  const choice = choices(pc, sub).find((c) => c.key === form.get('choice') && !c.onRequest);
  if (!choice) {
    return pc.render(title, upgradeBody(pc, sub, html`${pc.t.fixErrors}`), { status: 422 });
  }
  let amount: number;
  let plan: OfferChangePlan;
  try {
    plan = planOfferChange(pc.ctx.store, sub, { offer: choice.offer, custom: choice.custom });
    // A switch that costs something is confirmed first, at the price shown, and only once it
    // can be paid: a refusal comes before the question, not after it.
    if (plan.amountTotal > 0) {
      assertPayable(plan);
      const quoted = form.get('confirm') === '1' ? Number(form.get('quoted')) : undefined;
      if (quoted !== plan.amountTotal) {
        const changed = quoted !== undefined;
        return pc.render(pc.t.confirmTitle, confirmBody(pc, sub, choice, plan, changed), {
          status: changed ? 409 : 200,
        });
      }
    }
    amount = applyOfferChange(pc.ctx.store, plan)?.amountTotal ?? 0;
  } catch (error) {
    return pc.render(title, upgradeBody(pc, sub, pc.explain(error)), {
      status: error instanceof ApiError ? error.status : 400,
    });
  }
  const t = pc.t;
  return pc.render(
    title,
    html`<h1>${title}</h1>
      ${successAlert(plan.immediate ? t.switched : `${t.switchScheduled} ${pc.date(plan.dateEffective)}.`)}
      <div class="card">
        <h2>${localize(choice.offer.title, pc.lang)}</h2>
        ${offerPrice(pc, choice.offer, plan.nextTerm.total)}
        ${amount > 0 ? html`<p>${t.dueNow}${t.colon} <strong>${pc.money(amount)}</strong></p>` : ''}
      </div>
      <div class="actions">
        <a class="button" href="${pc.link({ page: 'portal', s: sub.id })}">${t.backToPortal}</a>
      </div>`,
    { complete: 'upgrade' },
  );
}

/**
 * The restart page. "Restart now" only when a restart can work: while a valid payment method is
 * missing the page offers to add one, while overdue invoices block it, to pay them (the service
 * would refuse the restart either way, and the button would only lead to that refusal).
 */
function restartBody(pc: PageContext, sub: SubscriptionRecord, message?: SafeHtml): SafeHtml {
  const t = pc.t;
  const { store } = pc.ctx;
  const nowMs = store.clock.nowMs();
  const capping = isCappingReached(store, pc.customer, nowMs);
  const methodOk = pc.customer.paymentMethod === 'valid';
  const overdue = overdueInvoices(store, pc.customer, nowMs);
  return html`<h1>${t.restartTitle}</h1>
    ${message ? errorAlert(message) : ''}
    <div class="card">
      <p>${t.state}${t.colon} ${subscriptionBadge(pc, sub)}</p>
      ${
        overdue.length > 0
          ? html`<h2>${capping ? t.restartBlockedCapping : t.dueInvoices}</h2>
              <ul class="plain">
                ${overdue.map(
                  (i) =>
                    html`<li>
                      ${i.number} · ${pc.money(i.amountTotal)} ·
                      <a href="${pc.link({ page: 'charge', i: i.id })}"
                        >${t.pay}<span class="visually-hidden"> ${i.number}</span></a
                      >
                    </li>`,
                )}
              </ul>`
          : ''
      }
      ${
        !methodOk
          ? html`<p>${t.restartBlockedMethod}</p>
              <div class="actions">
                <a class="button" href="${pc.link({ page: 'register' })}">${t.addPaymentMethod}</a>
              </div>`
          : capping
            ? ''
            : html`<form method="post" action="${pc.action}">
                <div class="actions"><button type="submit">${t.restartNow}</button></div>
              </form>`
      }
    </div>`;
}

export function restartPage(pc: PageContext): Reply | null {
  const sub = currentSubscription(pc);
  if (!sub) return null;
  if (!SUSPENDED_STATES.has(sub.state)) {
    return pc.render(
      pc.t.restartTitle,
      html`<h1>${pc.t.restartTitle}</h1>
        ${successAlert(pc.t.notSuspended)}
        <p><a href="${pc.link({ page: 'portal', s: sub.id })}">${pc.t.backToPortal}</a></p>`,
    );
  }
  return pc.render(pc.t.restartTitle, restartBody(pc, sub));
}

export function restartSubmit(pc: PageContext): Reply | null {
  const sub = currentSubscription(pc);
  if (!sub) return null;
  const wasSuspended = SUSPENDED_STATES.has(sub.state);
  try {
    restartSubscription(pc.ctx.store, sub);
  } catch (error) {
    return pc.render(pc.t.restartTitle, restartBody(pc, sub, pc.explain(error)), {
      status: error instanceof ApiError ? error.status : 400,
    });
  }
  const t = pc.t;
  return pc.render(
    t.restartTitle,
    html`<h1>${t.restartTitle}</h1>
      ${successAlert(wasSuspended ? t.restarted : t.notSuspended)}
      <div class="actions">
        <a class="button" href="${pc.link({ page: 'portal', s: sub.id })}">${t.backToPortal}</a>
      </div>`,
    wasSuspended ? { complete: 'restart' } : {},
  );
}
