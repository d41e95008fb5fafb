import * as z from 'zod';
import { createCustomer, setBillingAddress } from '../billing/operations.js';
import type { SandboxContext } from '../context.js';
import { notFound } from '../http/errors.js';
import { json, readJson } from '../http/io.js';
import type { Router } from '../http/router.js';
import { presentCustomer } from './present.js';
import { parse, ReferenceSchema, requiredParam } from './validate.js';

const CreateCustomerBody = z.object({
  ReferenceCustomer: ReferenceSchema,
  Name: z.string().min(1, 'must not be empty').max(200),
  Email: z.email('must be an e-mail address'),
  ReferenceSegment: ReferenceSchema,
});

const optionalText = z.string().max(200).optional();
const BillingAddressBody = z
  .object({
    Company: optionalText,
    FirstName: optionalText,
    LastName: optionalText,
    AddressLine1: optionalText,
    ZipCode: z.string().max(20).optional(),
    City: optionalText,
    Country: z
      .string()
      .regex(/^[A-Z]{2}$/, 'must be a two-letter country code')
      .optional(),
    TaxInformation: z.string().max(50).optional(),
  })
  // The address has a fixed set of fields: a typo must not be silently dropped.
  .strict();

export function registerCustomerRoutes(router: Router, ctx: SandboxContext): void {
  const { store } = ctx;

  // 1. Creation by caller reference; repeating it returns the existing customer.
  router.add('POST', '/v1/Customer', async ({ req }) => {
    const body = parse(CreateCustomerBody, await readJson(req));
    const { customer, created } = createCustomer(store, {
      reference: body.ReferenceCustomer,
      name: body.Name,
      email: body.Email,
      segment: body.ReferenceSegment,
    });
    return json(created ? 201 : 200, presentCustomer(ctx, customer));
  });

  // 2. Billing address.
  router.add('POST', '/v1/CustomerBillingAddress', async ({ req, query }) => {
    const customer = store.customer(requiredParam(query, 'ReferenceCustomer'));
    const body = parse(BillingAddressBody, await readJson(req));
    setBillingAddress(store, customer, body);
    return json(200, { ReferenceCustomer: customer.reference, ...customer.billingAddress });
  });

  // 3. Customer with its insite links.
  router.add('GET', '/v1/Customer', ({ query }) => {
    const customer = store.customer(requiredParam(query, 'ReferenceCustomer'));
    const offerRef = query.get('ReferenceOffer');
    let offer;
    if (offerRef) {
      offer = ctx.catalog.offers.get(offerRef);
      if (!offer)
        throw notFound(
          'Error.Offer.NotFound',
          `No offer with reference '${offerRef}'.`,
          'ReferenceOffer',
        );
    }
    return json(200, presentCustomer(ctx, customer, offer));
  });
}
