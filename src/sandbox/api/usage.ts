import type { Usage } from '../../contract/resources.js';
import { isLive } from '../billing/rules.js';
import {
  applyUsage,
  priceUsage,
  usageSubscription,
  type Billability,
} from '../billing/usage-operations.js';
import type { SandboxContext } from '../context.js';
import { notFound, ValidationError } from '../http/errors.js';
import { json, readJson, type Reply } from '../http/io.js';
import type { RequestContext, Router } from '../http/router.js';
import type { CustomerRecord, SubscriptionRecord } from '../state/types.js';
import { noteUnknownFields, withoutNulls } from './body.js';
import { paged, pageParams } from './paging.js';
import { presentPricing, presentUsage } from './present-usage.js';
import { resolveLanguage } from './present.js';
import {
  changeOf,
  parsePricingBody,
  parseUsageBody,
  PricingBody,
  UsageChangeBody,
} from './usage-body.js';
import { boolParam, idParam, requiredParam } from './validate.js';

/** Both paths of pricing a usage change: the seed's and the current reference's. */
const PRICING_PATHS = ['/v1/Pricing/Usage', '/v1/Quoting/Usage'];

/**
 * A flag of the pricing call, read from the query (as the live service does) or the body (as
 * the seed writes NextTerm). Both given and different: a 422, rather than a guess.
 */
function pricingFlag(
  request: RequestContext,
  name: 'NextTerm' | 'EnsureBillable',
  fromBody: boolean | undefined,
): boolean | undefined {
  const fromQuery = boolParam(request.query, name);
  if (fromQuery !== undefined && fromBody !== undefined && fromQuery !== fromBody) {
    throw new ValidationError([
      {
        Code: 'Error.Api.Validation',
        Message: `${name} is ${fromQuery} in the query and ${fromBody} in the body: give it once`,
        Target: name,
      },
    ]);
  }
  return fromQuery ?? fromBody;
}

function billabilityOf(ensureBillable: boolean | undefined): Billability {
  if (ensureBillable === undefined) return 'default';
  return ensureBillable ? 'ensure' : 'skip';
}

/** Every usage of the customer's live (running or suspended) subscriptions. */
function usagesOf(
  ctx: SandboxContext,
  request: RequestContext,
  customer: CustomerRecord,
  filter: { feature: string | null; subscription: number | undefined },
): Usage[] {
  const lang = resolveLanguage(ctx, request, customer);
  const items: Usage[] = [];
  for (const sub of ctx.store.subscriptionsOf(customer.id)) {
    if (sub.custom || !isLive(sub)) continue;
    if (filter.subscription !== undefined && sub.id !== filter.subscription) continue;
    for (const ref of Object.keys(sub.features)) {
      if (filter.feature && ref !== filter.feature) continue;
      const usage = presentUsage(ctx, sub, ref, customer, lang);
      if (usage) items.push(usage);
    }
  }
  return items;
}

export function registerUsageRoutes(router: Router, ctx: SandboxContext): void {
  const { store } = ctx;

  // 13. One Usage per feature of a customer's live subscriptions, paged; or, with
  // ReferenceFeature and no customer, every customer's usage of that feature.
  router.add('GET', '/v1/Usages', (request) => {
    const customerRef = request.query.get('ReferenceCustomer');
    const feature = request.query.get('ReferenceFeature');
    const subscriptionRaw = request.query.get('IdSubscription');
    const subscription =
      subscriptionRaw === null ? undefined : idParam(subscriptionRaw, 'IdSubscription');
    const page = pageParams(request.query, { minSize: 1 });
    if (!customerRef && !feature) {
      throw new ValidationError([
        {
          Code: 'Error.Api.Validation',
          Message: 'ReferenceCustomer is required unless ReferenceFeature is given',
          Target: 'ReferenceCustomer',
        },
      ]);
    }
    const customers = customerRef ? [store.customer(customerRef)] : store.state.customers;
    const items = customers.flatMap((customer) =>
      usagesOf(ctx, request, customer, { feature, subscription }),
    );
    return json(200, paged(items, page));
  });

  // One usage: the customer's usage of a feature, on IdSubscription or their main subscription.
  router.add('GET', '/v1/Usage', (request) => {
    const customer = store.customer(requiredParam(request.query, 'ReferenceCustomer'));
    const feature = requiredParam(request.query, 'ReferenceFeature');
    const subscriptionRaw = request.query.get('IdSubscription');
    const lang = resolveLanguage(ctx, request, customer);
    let candidates: SubscriptionRecord[];
    if (subscriptionRaw !== null) {
      candidates = [usageSubscription(store, customer, idParam(subscriptionRaw, 'IdSubscription'))];
    } else {
      // The main subscription first, then the other live ones, most recent first.
      const main = store.mainSubscription(customer.id);
      const others = store
        .subscriptionsOf(customer.id)
        .filter((s) => s !== main)
        .reverse();
      candidates = main ? [main, ...others] : others;
    }
    for (const sub of candidates) {
      if (sub.custom || !isLive(sub)) continue;
      const usage = presentUsage(ctx, sub, feature, customer, lang);
      if (usage) return json(200, usage);
    }
    throw notFound(
      'Error.Api.Usage.NoneMatching',
      `Customer '${customer.reference}' has no usage of the feature '${feature}'.`,
      'ReferenceFeature',
    );
  });

  // 14. Price of a change; never changes anything.
  const pricing = async (request: RequestContext): Promise<Reply> => {
    const raw = withoutNulls(await readJson(request.req));
    noteUnknownFields(ctx, request.route, PricingBody, raw);
    const body = parsePricingBody(store, raw);
    const nextTerm = pricingFlag(request, 'NextTerm', body.NextTerm);
    const ensureBillable = pricingFlag(request, 'EnsureBillable', body.EnsureBillable);
    const customer = store.customer(body.ReferenceCustomer);
    const lang = resolveLanguage(ctx, request, customer, body.Language);
    const { sub, quote } = priceUsage(
      store,
      customer,
      {
        featureRef: body.ReferenceFeature,
        change: changeOf(body),
        idSubscription: body.IdSubscription,
      },
      billabilityOf(ensureBillable),
    );
    return json(200, presentPricing(ctx, customer, sub, quote, lang, nextTerm === true));
  };
  for (const path of PRICING_PATHS) router.add('POST', path, pricing);

  // 15. Applies a change; a billable one issues an invoice. The answer is the updated usage,
  // without any amount (the live service sends none: what was charged is the price asked for
  // just before, or the invoice).
  router.add('POST', '/v1/Usage', async (request) => {
    const raw = withoutNulls(await readJson(request.req));
    noteUnknownFields(ctx, request.route, UsageChangeBody, raw);
    const body = parseUsageBody(store, raw);
    const customer = store.customer(body.ReferenceCustomer);
    const lang = resolveLanguage(ctx, request, customer, body.Language);
    const { sub } = applyUsage(
      store,
      customer,
      {
        featureRef: body.ReferenceFeature,
        change: changeOf(body),
        idSubscription: body.IdSubscription,
      },
      body.DateStamp ?? null,
    );
    ctx.stats.usageApplied(customer.reference);
    return json(200, presentUsage(ctx, sub, body.ReferenceFeature, customer, lang));
  });
}
