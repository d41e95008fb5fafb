import * as z from 'zod';
import { presentCustomer, presentInvoice, presentSubscription } from '../api/present.js';
import { idParam, jsonNumber, parse } from '../api/validate.js';
import {
  completeSubscription,
  payInvoice,
  restartSubscription,
  setPaymentMethod,
  suspendSubscription,
} from '../billing/operations.js';
import { paymentTypeOf } from '../billing/payment-type.js';
import { catchUp, isCappingReached } from '../billing/rules.js';
import { addMonthsUtc, DAY_MS } from '../clock.js';
import type { SandboxContext } from '../context.js';
import { ApiError } from '../http/errors.js';
import { json, readJson } from '../http/io.js';
import type { Router } from '../http/router.js';
import { FAULT_MODES } from './faults.js';
import { TimestampSchema, timestampMs } from '../timestamps.js';

// Exactly one of `advance` (days, months, hours) or `set` (a timestamp); an object rather than a
// union so that a wrong value is named by its path (advance.days).
const ClockBody = z
  .object({
    advance: z
      .object({
        days: jsonNumber(z.int().min(0).max(3650)).optional(),
        months: jsonNumber(z.int().min(0).max(120)).optional(),
        hours: jsonNumber(z.int().min(0).max(87_600)).optional(),
      })
      .strict()
      .optional(),
    set: TimestampSchema.optional(),
  })
  .strict()
  .refine((body) => (body.advance === undefined) !== (body.set === undefined), {
    message: 'give exactly one of advance or set',
  });

const PaymentMethodBody = z.object({ state: z.enum(['valid', 'invalid', 'absent']) }).strict();

export function registerControlRoutes(
  router: Router,
  ctx: SandboxContext,
  routeKeys: () => string[],
): void {
  const { store } = ctx;
  const clockView = () => ({ now: store.clock.nowIso(), frozen: store.clock.frozen });

  router.add('POST', '/_sandbox/reset', () => {
    ctx.reset();
    return json(200, { reset: true, ...clockView() });
  });

  router.add('GET', '/_sandbox/clock', () => json(200, clockView()));

  router.add('POST', '/_sandbox/clock', async ({ req }) => {
    const body = parse(ClockBody, await readJson(req));
    const now = store.clock.nowMs();
    let target: number;
    if (body.set !== undefined) {
      target = timestampMs(body.set);
    } else {
      const { days = 0, months = 0, hours = 0 } = body.advance ?? {};
      target = addMonthsUtc(now, months) + days * DAY_MS + hours * 3_600_000;
    }
    // Periods and invoices are already settled up to now: time only moves forward.
    if (target < now) {
      throw new ApiError(422, 'Error.Api.Validation', 'The clock only moves forward.', 'set');
    }
    store.clock.set(target);
    store.invalidateEvents();
    catchUp(store);
    store.changed();
    return json(200, clockView());
  });

  router.add('POST', '/_sandbox/customers/{ref}/payment-method', async ({ req, params }) => {
    const customer = store.customer(params.ref ?? '');
    const body = parse(PaymentMethodBody, await readJson(req));
    setPaymentMethod(store, customer, body.state);
    return json(200, {
      ReferenceCustomer: customer.reference,
      paymentMethod: customer.paymentMethod,
    });
  });

  router.add('GET', '/_sandbox/customers/{ref}', ({ params }) => {
    const customer = store.customer(params.ref ?? '');
    const lang = ctx.catalog.business.defaultLanguage;
    return json(200, {
      customer: presentCustomer(ctx, customer),
      paymentMethod: customer.paymentMethod,
      paymentMethodLabel: customer.paymentMethodLabel,
      typePayment: paymentTypeOf(customer),
      billingAddress: customer.billingAddress,
      isPaymentCappingReached: isCappingReached(store, customer, store.clock.nowMs()),
      subscriptions: store
        .subscriptionsOf(customer.id)
        .map((s) => ({ ...presentSubscription(ctx, s, lang), custom: s.custom })),
      invoices: store.invoicesOf(customer.id).map((i) => presentInvoice(ctx, i)),
      usageLog: customer.usageLog,
    });
  });

  router.add('POST', '/_sandbox/invoices/{id}/pay', ({ params }) => {
    const invoice = store.invoice(idParam(params.id, 'IdInvoice'));
    const { alreadyPaid } = payInvoice(store, invoice);
    return json(200, { ...presentInvoice(ctx, invoice), alreadyPaid });
  });

  const subscriptionAction = (action: string, run: (id: number) => void) =>
    router.add('POST', `/_sandbox/subscriptions/{id}/${action}`, ({ params }) => {
      const id = idParam(params.id, 'IdSubscription');
      run(id);
      return json(
        200,
        presentSubscription(ctx, store.subscription(id), ctx.catalog.business.defaultLanguage),
      );
    });
  subscriptionAction('complete', (id) => {
    completeSubscription(store, store.subscription(id), { requirePaymentMethod: false });
  });
  subscriptionAction('restart', (id) => restartSubscription(store, store.subscription(id)));
  subscriptionAction('suspend', (id) => suspendSubscription(store, store.subscription(id)));

  router.add('GET', '/_sandbox/stats', () => json(200, ctx.stats.toJSON()));
  router.add('DELETE', '/_sandbox/stats', () => {
    ctx.stats.clear();
    return json(200, ctx.stats.toJSON());
  });

  router.add('GET', '/_sandbox/faults', () => json(200, { faults: ctx.faults.list() }));
  router.add('DELETE', '/_sandbox/faults', () => {
    ctx.faults.clear();
    return json(200, { faults: [] });
  });
  router.add('POST', '/_sandbox/faults', async ({ req }) => {
    const keys = routeKeys();
    const body = parse(
      z
        .object({
          route: z.string().refine((r) => keys.some((k) => k.toLowerCase() === r.toLowerCase()), {
            message: `must be one of: ${keys.join(', ')}`,
          }),
          mode: z.enum(FAULT_MODES),
          delayMs: jsonNumber(z.int().min(0).max(120_000)).default(0),
          times: jsonNumber(z.int().min(1).max(1_000_000)).default(1),
        })
        .strict(),
      await readJson(req),
    );
    const route = keys.find((k) => k.toLowerCase() === body.route.toLowerCase()) as string;
    ctx.faults.add({ route, mode: body.mode, delayMs: body.delayMs, remaining: body.times });
    return json(201, { faults: ctx.faults.list() });
  });
}
