import * as z from 'zod';
import { applyUsage, priceUsage } from '../billing/operations.js';
import { isLive } from '../billing/rules.js';
import type { SandboxContext } from '../context.js';
import { json, readJson } from '../http/io.js';
import type { Router } from '../http/router.js';
import type { Usage } from '../../contract/resources.js';
import { presentPricing, presentUsage, resolveLanguage } from './present.js';
import {
  DateStampSchema,
  IncrementSchema,
  intParam,
  LanguageFieldSchema,
  parse,
  ReferenceSchema,
  requiredParam,
} from './validate.js';

export const MAX_PAGE_SIZE = 1000;

const UsageChangeBody = z.object({
  ReferenceCustomer: ReferenceSchema,
  ReferenceFeature: ReferenceSchema,
  Increment: IncrementSchema,
  DateStamp: DateStampSchema.optional(),
  Language: LanguageFieldSchema.optional(),
});
const PricingBody = UsageChangeBody.extend({
  NextTerm: z.boolean('must be true or false').optional(),
});

export function registerUsageRoutes(router: Router, ctx: SandboxContext): void {
  const { store } = ctx;

  // 13. One Usage per feature of the customer's live subscriptions, paged.
  router.add('GET', '/v1/Usages', (rc) => {
    const customer = store.customer(requiredParam(rc.query, 'ReferenceCustomer'));
    const page = intParam(rc.query, 'Page', 1, 1, 1_000_000);
    const size = intParam(rc.query, 'SizePage', 10, 1, MAX_PAGE_SIZE);
    const feature = rc.query.get('ReferenceFeature');
    const lang = resolveLanguage(ctx, rc, customer);
    const items: Usage[] = [];
    for (const sub of store.subscriptionsOf(customer.id)) {
      if (sub.custom || !isLive(sub)) continue;
      for (const ref of Object.keys(sub.features)) {
        if (feature && ref !== feature) continue;
        const usage = presentUsage(ctx, sub, ref, customer, lang);
        if (usage) items.push(usage);
      }
    }
    const start = (page - 1) * size;
    const pageItems = items.slice(start, start + size);
    return json(200, {
      Page: page,
      SizePage: size,
      Count: pageItems.length,
      TotalItems: items.length,
      Items: pageItems,
    });
  });

  // 14. Price of a change; never changes anything.
  router.add('POST', '/v1/Pricing/Usage', async (rc) => {
    const body = parse(PricingBody, await readJson(rc.req));
    const customer = store.customer(body.ReferenceCustomer);
    const lang = resolveLanguage(ctx, rc, customer, body.Language);
    const { sub, quote } = priceUsage(store, customer, body.ReferenceFeature, body.Increment);
    return json(200, presentPricing(ctx, customer, sub, quote, lang, body.NextTerm === true));
  });

  // 15. Applies a change; a billable one issues an invoice.
  router.add('POST', '/v1/Usage', async (rc) => {
    const body = parse(UsageChangeBody, await readJson(rc.req));
    const customer = store.customer(body.ReferenceCustomer);
    const lang = resolveLanguage(ctx, rc, customer, body.Language);
    const { sub, quote, invoice } = applyUsage(
      store,
      customer,
      body.ReferenceFeature,
      body.Increment,
      body.DateStamp ?? null,
    );
    ctx.stats.usageApplied(customer.reference);
    return json(200, {
      ...presentUsage(ctx, sub, body.ReferenceFeature, customer, lang),
      Increment: body.Increment,
      AmountSubtotal: quote.amountSubtotal,
      AmountTotal: quote.amountTotal,
      Currency: ctx.catalog.business.currency,
      IdInvoice: invoice?.id ?? null,
    });
  });
}
