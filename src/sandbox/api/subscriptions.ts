import * as z from 'zod';
import { applyOfferChange, assertPayable, planOfferChange } from '../billing/offer-change.js';
import { createSubscription } from '../billing/operations.js';
import { mainSubscriptionOf } from '../billing/usage-operations.js';
import type { CatalogOffer } from '../catalog.js';
import type { SandboxContext } from '../context.js';
import { ApiError, notFound } from '../http/errors.js';
import { json } from '../http/io.js';
import type { RequestContext, Router } from '../http/router.js';
import { presentSubscription, resolveLanguage } from './present.js';
import { presentUpgradeQuote } from './present-quote.js';
import { readApiBody } from './body.js';
import { customerFilter, segmentFilter } from './filters.js';
import { pageParams, pagedAs } from './paging.js';
import { boolParam, idParam, ReferenceSchema, requiredParam } from './validate.js';

const CreateSubscriptionBody = z.object({
  ReferenceCustomer: ReferenceSchema,
  ReferenceOffer: ReferenceSchema,
});

export function registerSubscriptionRoutes(router: Router, ctx: SandboxContext): void {
  const { store, catalog } = ctx;
  const offer = (reference: string): CatalogOffer => {
    const found = catalog.offers.get(reference);
    if (!found)
      throw notFound(
        'Error.Offer.NotFound',
        `No offer with reference '${reference}'.`,
        'ReferenceOffer',
      );
    return found;
  };

  // 4. Creation: a pending subscription the customer starts on the hosted subscribe page.
  router.add('POST', '/v1/Subscription', async (request) => {
    const body = await readApiBody(ctx, request, CreateSubscriptionBody);
    const customer = store.customer(body.ReferenceCustomer);
    const sub = createSubscription(store, customer, offer(body.ReferenceOffer));
    return json(201, presentSubscription(ctx, sub, resolveLanguage(ctx, request, customer)));
  });

  // 6. The customer's subscription: the running or suspended one, else the pending one.
  router.add('GET', '/v1/Subscription', (request) => {
    const customer = store.customer(requiredParam(request.query, 'ReferenceCustomer'));
    const sub = mainSubscriptionOf(store, customer);
    return json(200, presentSubscription(ctx, sub, resolveLanguage(ctx, request, customer)));
  });

  // The subscriptions, paged, oldest first, in every state (pending, running, suspended, ended,
  // and the custom ones the business prepared); filtered by segment, customer and buyer (the
  // sandbox's buyer is always the customer). Each item is what GET /v1/Subscription/{id}
  // answers, in its customer's language unless the request names one; IgnoreFeatures=true
  // leaves out Features.
  router.add('GET', '/v1/Subscriptions', (request) => {
    const page = pageParams(request.query, { minSize: 0 });
    const segment = segmentFilter(ctx, request.query);
    const customer = customerFilter(ctx, request.query, 'ReferenceCustomer');
    const buyer = customerFilter(ctx, request.query, 'ReferenceCustomerBuyer');
    const ignoreFeatures = boolParam(request.query, 'IgnoreFeatures') ?? false;
    resolveLanguage(ctx, request); // a wrong Language is refused even when the page is empty
    const subs = store.state.subscriptions.filter((sub) => {
      const owner = store.customerById(sub.customerId);
      return (
        owner !== undefined &&
        (segment === undefined || owner.segment === segment) &&
        (customer === undefined || owner === customer) &&
        (buyer === undefined || owner === buyer)
      );
    });
    return json(
      200,
      pagedAs(subs, page, (sub) => {
        const lang = resolveLanguage(ctx, request, store.customerById(sub.customerId));
        const { Features, ...rest } = presentSubscription(ctx, sub, lang);
        return ignoreFeatures ? rest : { ...rest, Features };
      }),
    );
  });

  // 5 and 7. By id; with IdSubscriptionToUpgrade, the targeted custom subscription.
  router.add('GET', '/v1/Subscription/{id}', (request) => {
    const sub = store.subscription(idParam(request.params.id, 'IdSubscription'));
    const customer = store.customerById(sub.customerId);
    const lang = resolveLanguage(ctx, request, customer);
    const fromRaw = request.query.get('IdSubscriptionToUpgrade');
    if (fromRaw === null) return json(200, presentSubscription(ctx, sub, lang));
    const from = store.subscription(idParam(fromRaw, 'IdSubscriptionToUpgrade'));
    if (from.customerId !== sub.customerId) {
      throw new ApiError(
        422,
        'Error.Api.Validation',
        'Both subscriptions must belong to the same customer.',
        'IdSubscriptionToUpgrade',
      );
    }
    return json(200, presentSubscription(ctx, sub, lang, { upgradeFrom: from }));
  });

  // 10. Preview on another offer.
  router.add('GET', '/v1/Subscription/{id}/Upgrade', (request) => {
    const sub = store.subscription(idParam(request.params.id, 'IdSubscription'));
    const target = offer(requiredParam(request.query, 'ReferenceOffer'));
    const lang = resolveLanguage(ctx, request, store.customerById(sub.customerId));
    return json(200, presentSubscription(ctx, sub, lang, { previewOffer: target }));
  });

  /** The target of an offer change: `IdSubscription` (a custom one) or `ReferenceOffer`. */
  const changeTarget = (request: RequestContext, allowCustom: boolean) => {
    const toRaw = allowCustom ? request.query.get('IdSubscription') : null;
    const offerRef = request.query.get('ReferenceOffer');
    if (!allowCustom) return { offer: offer(requiredParam(request.query, 'ReferenceOffer')) };
    if ((toRaw === null) === (offerRef === null)) {
      throw new ApiError(
        422,
        'Error.Api.Validation',
        'Give exactly one of IdSubscription or ReferenceOffer.',
        'IdSubscription',
      );
    }
    if (toRaw !== null) {
      const custom = store.subscription(idParam(toRaw, 'IdSubscription'));
      return { offer: offer(custom.offer), custom };
    }
    return { offer: offer(offerRef as string) };
  };
  const changeOptions = (request: RequestContext) => ({
    immediate: boolParam(request.query, 'Immediate'),
    billNow: boolParam(request.query, 'BillNow'),
  });

  // 8 and 9. Change to a custom subscription's terms (now) or to an offer: an upgrade now, a
  // downgrade at the end of the period unless Immediate=true; the same plan as the quote.
  router.add('POST', '/v1/Subscription/{id}/Upgrade', (request) => {
    const sub = store.subscription(idParam(request.params.id, 'IdSubscription'));
    const target = changeTarget(request, true);
    const plan = planOfferChange(store, sub, target, target.custom ? {} : changeOptions(request));
    const invoice = applyOfferChange(store, plan);
    const lang = resolveLanguage(ctx, request, store.customerById(sub.customerId));
    return json(200, {
      ...presentSubscription(ctx, sub, lang),
      AmountChargedNow: invoice?.amountTotal ?? 0,
      IdInvoice: invoice?.id ?? null,
      DateEffective: plan.dateEffective,
    });
  });

  // The quote of an offer change: what endpoint 9 would charge now and the new recurring
  // price, changing nothing.
  router.add('POST', '/v1/Quoting/Subscription/{id}/Upgrade', (request) => {
    const sub = store.subscription(idParam(request.params.id, 'IdSubscription'));
    const plan = planOfferChange(store, sub, changeTarget(request, false), changeOptions(request));
    const ensureBillable = boolParam(request.query, 'EnsureBillable');
    if (ensureBillable !== false) assertPayable(plan, ensureBillable === true);
    const lang = resolveLanguage(ctx, request, plan.customer);
    return json(200, presentUpgradeQuote(ctx, plan, lang));
  });
}
