import * as z from 'zod';
import { setBillingAddress, upsertCustomer } from '../billing/operations.js';
import type { SandboxContext } from '../context.js';
import { notFound } from '../http/errors.js';
import { json } from '../http/io.js';
import type { Router } from '../http/router.js';
import type { CustomerRecord } from '../state/types.js';
import { readApiBody } from './body.js';
import { segmentFilter } from './filters.js';
import { pageParams, pagedAs } from './paging.js';
import { onOffState, presentCustomer } from './present.js';
import { ReferenceSchema, requiredParam } from './validate.js';

/** The live service keeps at most this many Metadata pairs on a customer. */
export const MAX_METADATA_PAIRS = 5;
const MAX_METADATA_KEY = 64;
const MAX_METADATA_VALUE = 500;

/** A BCP 47 language tag as clients send it: `fr`, `en-GB`, `pt-BR`. */
const LanguageTagSchema = z
  .string()
  .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/, 'must be a language code such as en, fr or pt-BR');

/** '' is "not given" too: clients that know no name or e-mail send an empty string. */
const emptyAsAbsent = <T extends z.ZodType>(schema: T) =>
  z.union([z.literal('').transform(() => undefined), schema]).optional();

// 1. Every field but the reference is optional (create or update by ReferenceCustomer).
const CustomerBody = z.object({
  ReferenceCustomer: ReferenceSchema,
  Name: emptyAsAbsent(z.string().max(200, 'must be at most 200 characters')),
  Email: emptyAsAbsent(z.email('must be an e-mail address')),
  Language: LanguageTagSchema.optional(),
  ReferenceSegment: ReferenceSchema.optional(),
  ReferenceOffer: ReferenceSchema.optional(),
  ReferenceAffiliation: z.string().max(128, 'must be at most 128 characters').optional(),
  Metadata: z
    .record(
      z
        .string()
        .min(1)
        .max(MAX_METADATA_KEY, `keys must be at most ${MAX_METADATA_KEY} characters`),
      z
        .string('values must be strings')
        .max(MAX_METADATA_VALUE, `values must be at most ${MAX_METADATA_VALUE} characters`),
    )
    .refine(
      (pairs) => Object.keys(pairs).length <= MAX_METADATA_PAIRS,
      `must hold at most ${MAX_METADATA_PAIRS} pairs`,
    )
    .optional(),
});

const addressText = (max: number) => z.string().max(max, `must be at most ${max} characters`);
// 2. Every field is optional; a POST replaces the whole address (a field not given is cleared).
const BillingAddressBody = z.object({
  Company: addressText(200).optional(),
  FirstName: addressText(200).optional(),
  LastName: addressText(200).optional(),
  AddressLine1: addressText(200).optional(),
  AddressLine2: addressText(200).optional(),
  ZipCode: addressText(20).optional(),
  City: addressText(200).optional(),
  Region: addressText(200).optional(),
  Country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code')
    .transform((code) => code.toUpperCase())
    .optional(),
  TaxInformation: addressText(50).optional(),
  Phone: z
    .string()
    .regex(/^\+?[0-9 ().-]{3,32}$/, 'must be a phone number (digits, spaces, + ( ) . -)')
    .optional(),
});

/** Both names of the billing address resource: the seed's and the current reference's. */
const BILLING_ADDRESS_PATHS = ['/v1/CustomerBillingAddress', '/v1/CustomerAddressBilling'];

/**
 * Whether the customer has an active (running) subscription with the feature: a metered feature
 * of its offer, or an on/off feature it includes or the customer bought as an add-on.
 */
function hasActiveFeature(ctx: SandboxContext, customer: CustomerRecord, reference: string) {
  const definition = ctx.catalog.features.get(reference);
  return ctx.store.subscriptionsOf(customer.id).some((sub) => {
    if (sub.custom || sub.state !== 'Running') return false;
    const record = sub.features[reference];
    const offerFeature = ctx.catalog.offers.get(sub.offer)?.featureByRef.get(reference);
    if (!definition || !record || !offerFeature) return false;
    return definition.type !== 'OnOff' || onOffState(offerFeature, definition, record).IsIncluded;
  });
}

function presentAddress(customer: CustomerRecord) {
  return { ReferenceCustomer: customer.reference, ...customer.billingAddress };
}

export function registerCustomerRoutes(router: Router, ctx: SandboxContext): void {
  const { store } = ctx;

  // 1. Create or update by caller reference: 201 when created, 200 when it existed.
  router.add('POST', '/v1/Customer', async (request) => {
    const body = await readApiBody(ctx, request, CustomerBody);
    const { customer, created } = upsertCustomer(store, {
      reference: body.ReferenceCustomer,
      name: body.Name,
      email: body.Email,
      language: body.Language,
      segment: body.ReferenceSegment,
      offer: body.ReferenceOffer,
      affiliation: body.ReferenceAffiliation,
      metadata: body.Metadata,
    });
    return json(created ? 201 : 200, presentCustomer(ctx, customer));
  });

  // 2. Billing address: POST stores it, GET reads it, under either name.
  for (const path of BILLING_ADDRESS_PATHS) {
    router.add('POST', path, async (request) => {
      const customer = store.customer(requiredParam(request.query, 'ReferenceCustomer'));
      const body = await readApiBody(ctx, request, BillingAddressBody);
      setBillingAddress(store, customer, body);
      return json(200, presentAddress(customer));
    });
    router.add('GET', path, ({ query }) =>
      json(200, presentAddress(store.customer(requiredParam(query, 'ReferenceCustomer')))),
    );
  }

  // The customers, paged, oldest first; filtered by segment and by a feature their active
  // subscription has. Each item is what GET /v1/Customer answers.
  router.add('GET', '/v1/Customers', ({ query }) => {
    const page = pageParams(query, { minSize: 0 });
    const segment = segmentFilter(ctx, query);
    const feature = query.get('ReferenceFeature') || undefined;
    if (feature !== undefined && !ctx.catalog.features.has(feature)) {
      throw notFound(
        'Error.Feature.NotFound',
        `No feature with reference '${feature}'.`,
        'ReferenceFeature',
      );
    }
    const customers = store.state.customers.filter(
      (c) =>
        (segment === undefined || c.segment === segment) &&
        (feature === undefined || hasActiveFeature(ctx, c, feature)),
    );
    return json(
      200,
      pagedAs(customers, page, (c) => presentCustomer(ctx, c)),
    );
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
