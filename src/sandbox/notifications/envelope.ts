import { randomUUID } from 'node:crypto';
import type { NotificationEnvelope } from '../../contract/notifications.js';
import { presentOffer } from '../api/present-catalog.js';
import { presentCustomer, presentInvoice, presentSubscription } from '../api/present.js';
import { iso } from '../clock.js';
import type { SandboxContext } from '../context.js';
import { supportedLanguage } from '../i18n.js';
import type { CustomerRecord, StateEvent } from '../state/types.js';

// The body of a notification: the envelope of live-service-notes.md ("Notifications"), built
// from the records as they are when the change is emitted. Blocks are the API's own resources
// without their Links (a notification says what changed, it is not a way into hosted pages).

type Block = Record<string, unknown>;

/** The families' extra blocks, by event code (every event carries `Customer`). */
const FAMILY: Record<StateEvent['type'], 'customer' | 'subscription' | 'invoice' | 'payment'> = {
  CustomerAdded: 'customer',
  CustomerUpdated: 'customer',
  CustomerBillingAddressUpdated: 'customer',
  CustomerPaymentMethodUpdated: 'payment',
  CustomerChargingFailed: 'invoice',
  SubscriptionStarted: 'subscription',
  SubscriptionUpgraded: 'subscription',
  SubscriptionUpdated: 'subscription',
  SubscriptionFeaturesUpdated: 'subscription',
  // The live service sends this one with the Customer block only.
  SubscriptionDateTermUpdated: 'customer',
  SubscriptionSuspendedAgent: 'subscription',
  SubscriptionSuspendedPaymentDue: 'subscription',
  SubscriptionSuspendedPaymentInfoMissing: 'subscription',
  SubscriptionRestarted: 'subscription',
  InvoiceDebitIssued: 'invoice',
  InvoiceDebitPaid: 'invoice',
};

function withoutLinks<T extends { Links?: unknown }>(resource: T): Block {
  const { Links: _links, ...rest } = resource;
  return rest;
}

const PAYMENT_STATES = { valid: 'Valid', invalid: 'Invalid', absent: 'Absent' } as const;

function gatewayPermission(customer: CustomerRecord): Block {
  return {
    IdCustomer: customer.id,
    ReferenceCustomer: customer.reference,
    StatePermission: PAYMENT_STATES[customer.paymentMethod],
    IsValid: customer.paymentMethod === 'valid',
    ...(customer.paymentMethodLabel ? { Label: customer.paymentMethodLabel } : {}),
  };
}

/** The envelope of one change, or null when its records are gone (nothing to say). */
export function buildEnvelope(ctx: SandboxContext, event: StateEvent): NotificationEnvelope | null {
  const { store, catalog } = ctx;
  const customer = store.customerById(event.customerId);
  if (!customer) return null;
  const segment = catalog.segmentOf(customer.segment);
  const lang = supportedLanguage(customer.language) ?? catalog.business.defaultLanguage;
  const customerBlock = withoutLinks(presentCustomer(ctx, customer));
  const blocks: Block = {};
  const family = FAMILY[event.type];
  const sub =
    event.subscriptionId === undefined ? undefined : store.findSubscription(event.subscriptionId);
  if (family === 'subscription' && sub) {
    const offer = catalog.offers.get(sub.offer);
    blocks.CustomerBuyer = customerBlock;
    if (offer) {
      blocks.Offer = withoutLinks(
        presentOffer(ctx, offer, {
          lang,
          segment,
          html: false,
          pricing: true,
          links: false,
          features: false,
        }),
      );
    }
    blocks.Subscription = withoutLinks(presentSubscription(ctx, sub, lang));
  } else if (family === 'invoice' && event.invoiceId !== undefined) {
    blocks.InvoiceDebit = withoutLinks(presentInvoice(ctx, store.invoice(event.invoiceId)));
  } else if (family === 'payment') {
    blocks.GatewayPermission = gatewayPermission(customer);
  }
  return {
    Id: randomUUID(),
    IdBusiness: catalog.business.id,
    IdSegment: segment.id,
    ReferenceSegment: segment.reference,
    DateTrigger: iso(event.atMs),
    TypeTrigger: event.type,
    Customer: customerBlock as NotificationEnvelope['Customer'],
    ...blocks,
  };
}
