import * as z from 'zod';
import {
  gatewayTypeMessage,
  nextBillingOf,
  updatePaymentSettings,
} from '../billing/payment-settings.js';
import {
  chargesAutomatically,
  isBillable,
  MANUAL_PAYMENT_TYPES,
  paymentTypeOf,
} from '../billing/payment-type.js';
import type { SandboxContext } from '../context.js';
import { json } from '../http/io.js';
import type { Router } from '../http/router.js';
import type { CustomerRecord } from '../state/types.js';
import { TimestampSchema, timestampMs } from '../timestamps.js';
import { readApiBody } from './body.js';
import { requiredParam } from './validate.js';

// The payment settings of a customer, GET and POST /v1/CustomerSettingsPayment?ReferenceCustomer=:
// how they pay, whether they are grey-listed, the note on their invoices and the date of their
// next billing. A POST is a partial update: the fields given change, the others stay.

const MAX_NOTE = 1000;

const MANUAL_LIST = MANUAL_PAYMENT_TYPES.join(', ');

const PaymentSettingsBody = z.object({
  // Card is read here only to let a client write back what it read; switching to it is refused
  // by updatePaymentSettings. DirectDebit, which the sandbox has not, is always refused.
  TypePayment: z
    .enum(['Card', ...MANUAL_PAYMENT_TYPES], {
      error: (issue) =>
        issue.input === 'DirectDebit'
          ? gatewayTypeMessage('DirectDebit')
          : `must be one of ${MANUAL_LIST}`,
    })
    .optional(),
  IsGreyListed: z.boolean('must be true or false').optional(),
  NoteInvoice: z
    .string('must be a string')
    .max(MAX_NOTE, `must be at most ${MAX_NOTE} characters`)
    .optional(),
  DateNextBilling: TimestampSchema.optional(),
  // The live service's billing modes are not documented and the sandbox has one: it bills as
  // things happen. A client that sets one is told so rather than silently ignored.
  ModeBilling: z
    .never({ error: 'cannot be set: the sandbox has one billing mode (it bills automatically)' })
    .optional(),
});

function presentPaymentSettings(ctx: SandboxContext, customer: CustomerRecord) {
  return {
    ReferenceCustomer: customer.reference,
    TypePayment: paymentTypeOf(customer),
    IsGreyListed: customer.greyListed ?? false,
    NoteInvoice: customer.noteInvoice ?? null,
    DateNextBilling: nextBillingOf(ctx.store, customer),
    // Sandbox additions, what the settings mean for billing: a valid card is on file (whatever
    // the payment type); a billable change is accepted (the customer pays manually, or has a
    // valid card); each invoice is charged to the card as it is issued.
    IsPaymentMethodValid: customer.paymentMethod === 'valid',
    IsCustomerBillable: isBillable(customer),
    IsPaymentAutomatic: chargesAutomatically(customer),
  };
}

export function registerPaymentSettingsRoutes(router: Router, ctx: SandboxContext): void {
  const { store } = ctx;

  router.add('GET', '/v1/CustomerSettingsPayment', ({ query }) =>
    json(
      200,
      presentPaymentSettings(ctx, store.customer(requiredParam(query, 'ReferenceCustomer'))),
    ),
  );

  router.add('POST', '/v1/CustomerSettingsPayment', async (request) => {
    const customer = store.customer(requiredParam(request.query, 'ReferenceCustomer'));
    const body = await readApiBody(ctx, request, PaymentSettingsBody);
    updatePaymentSettings(store, customer, {
      typePayment: body.TypePayment,
      greyListed: body.IsGreyListed,
      noteInvoice: body.NoteInvoice,
      nextBillingMs:
        body.DateNextBilling === undefined ? undefined : timestampMs(body.DateNextBilling),
    });
    return json(200, presentPaymentSettings(ctx, customer));
  });
}
