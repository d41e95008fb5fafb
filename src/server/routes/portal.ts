import {
  findLink,
  type Customer,
  type Link,
  type LinkRel,
  type LinksResponse,
  type PortalRequest,
  type PortalResponse,
  type Subscription,
} from '../../contract/index.js';
import { isMissing, unavailablePage, withCustomer, type RouteContext } from '../context.js';
import { alreadySubscribed, ProxyError, UpstreamError } from '../errors.js';
import { parsePortalQuery } from '../validation.js';
import { dueInvoices, statusOf } from './subscription.js';

function queryOf(links: readonly Link[] | undefined, rel: LinkRel): string | undefined {
  const query = findLink(links, rel)?.query;
  return query === undefined || query === '' ? undefined : query;
}

async function subscriptionOrNull(context: RouteContext): Promise<Subscription | null> {
  try {
    return await context.upstream.subscriptionOf(context.identity.reference, context.call);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

function requireSubscription(subscription: Subscription | null): Subscription {
  if (subscription === null)
    throw new ProxyError(404, 'no-subscription', 'There is no subscription for this account.');
  return subscription;
}

/**
 * The encrypted opening query of a page, taken from the Links of the Customer, Subscription
 * or Invoice as the seed's opening table says. Every object read here is the identified
 * customer's own: ids the browser sends (subscription, invoice) are checked for ownership.
 */
async function pageQuery(
  context: RouteContext,
  page: PortalRequest,
  customer: () => Promise<Customer>,
): Promise<string> {
  const reference = context.identity.reference;
  const { upstream, call } = context;
  switch (page.page) {
    case 'home': {
      const subscription = await subscriptionOrNull(context);
      // A subscription waiting for its checkout is the customer's subscription too: its home
      // completes it (where the service links no portal page to it), never the catalogue.
      const query =
        queryOf(subscription?.Links, 'insite-related-subscription') ??
        queryOf(subscription?.Links, 'insite-subscribe');
      // Without a subscription the portal's natural home is the catalogue of offers.
      if (query !== undefined) return query;
      return need(
        queryOf((await customer()).Links, 'insite-collection-offers'),
        'The portal home is not available.',
      );
    }
    case 'offers': {
      // The service's catalogue would also sell a second subscription: a customer whose
      // subscription has started sees the plans as changes of it instead.
      const subscription = await subscriptionOrNull(context);
      if (subscription !== null && hasStarted(subscription))
        return changePlanQuery(subscription, customer);
      return need(
        queryOf((await customer()).Links, 'insite-collection-offers'),
        'The offers catalogue is not available.',
      );
    }
    case 'register':
      return need(
        queryOf((await customer()).Links, 'insite-register'),
        'Registration is not available.',
      );
    case 'subscribe': {
      // Read now, not from any cache: a page that has not seen the subscription start (another
      // tab, a missed live update) must not open a second one beside it.
      const current = await subscriptionOrNull(context);
      if (current !== null && hasStarted(current)) throw alreadySubscribed();
      if (current !== null && statusOf(current.StateSubscription).status === 'pending') {
        // One checkout at a time: the waiting one is completed, whatever offer was asked.
        if (page.offer !== undefined && page.offer !== current.ReferenceOffer) {
          throw new ProxyError(
            409,
            'subscription-pending',
            'A subscription is waiting for its checkout: complete it first.',
            { field: 'offer' },
          );
        }
        return need(
          queryOf(current.Links, 'insite-subscribe'),
          'Completing this subscription is not available.',
        );
      }
      if (page.offer !== undefined) {
        const withOffer = await withCustomer(context, () =>
          upstream.customer(reference, page.offer, call),
        );
        return need(
          queryOf(withOffer.Links, 'insite-subscribe'),
          'Subscribing to this offer is not available.',
        );
      }
      // Known only after reading the state (no draft to subscribe to): 409, like every page
      // the state does not offer; 400 stays for requests refused before any upstream call.
      throw new ProxyError(409, 'validation', 'Choose an offer to subscribe to.', {
        field: 'offer',
      });
    }
    case 'change-plan': {
      const current = requireSubscription(await subscriptionOrNull(context));
      if (page.subscription !== undefined) {
        const targeted = await upstream
          .targetedSubscription(page.subscription, current.Id, call)
          .catch((error: unknown) => {
            // The service refuses a subscription of another customer as invalid: same answer as missing.
            if (error instanceof UpstreamError && (error.status === 404 || error.status === 422))
              return null;
            throw error;
          });
        if (targeted === null || targeted.ReferenceCustomer !== reference) {
          // Another customer's subscription is indistinguishable from a missing one.
          throw new ProxyError(404, 'not-found', 'Subscription not found.', {
            field: 'subscription',
          });
        }
        return need(
          queryOf(targeted.Links, 'insite-upgrade'),
          'Changing to this subscription is not available.',
        );
      }
      if (page.offer !== undefined) {
        const preview = await upstream.upgradePreview(current.Id, page.offer, call);
        return need(
          queryOf(preview.Links, 'insite-upgrade'),
          'Changing to this offer is not available.',
        );
      }
      return changePlanQuery(current, customer);
    }
    case 'restart': {
      const subscription = requireSubscription(await subscriptionOrNull(context));
      return need(
        queryOf(subscription.Links, 'insite-restart'),
        'Restart is only available for a suspended subscription.',
      );
    }
    case 'pay-invoice': {
      if (page.invoice !== undefined) {
        const invoice = await upstream.invoice(page.invoice, call);
        if (invoice.ReferenceCustomer !== reference) {
          throw new ProxyError(404, 'not-found', 'Invoice not found.', { field: 'invoice' });
        }
        return need(queryOf(invoice.Links, 'insite-charge'), 'This invoice is not due.');
      }
      // Without an id: the oldest due invoice. When the service links no invoice to the
      // subscription, the customer portal on the subscription, where its invoices are paid.
      const subscription = await subscriptionOrNull(context);
      const [oldest] = await dueInvoices(context, subscription);
      const query =
        queryOf(oldest?.invoice.Links, 'insite-charge') ??
        (subscription?.IsPaymentCappingReached
          ? queryOf(subscription.Links, 'insite-related-subscription')
          : undefined);
      return need(query, 'There is no due invoice.');
    }
  }
}

/** Whether the customer's subscription has started (running or suspended) and not ended. */
function hasStarted(subscription: Subscription): boolean {
  const { status } = statusOf(subscription.StateSubscription);
  return status !== 'pending' && status !== 'ended';
}

/** The catalogue workflow that changes the plan of the customer's subscription. */
async function changePlanQuery(
  subscription: Subscription,
  customer: () => Promise<Customer>,
): Promise<string> {
  const query =
    queryOf(subscription.Links, 'insite-upgrade') ??
    queryOf((await customer()).Links, 'insite-collection-upgrade');
  return need(query, 'Changing plan is only available for an active subscription.');
}

function need(query: string | undefined, message: string): string {
  if (query === undefined) throw unavailablePage(message);
  return query;
}

/** HMAC-SHA256 of the customer reference with the portal secret, lowercase hex (ServicePortal.open `hash`). */
export async function portalHash(customerReference: string, secret: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const signature = new Uint8Array(
    await crypto.subtle.sign('HMAC', key, encoder.encode(customerReference)),
  );
  return Array.from(signature, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function customerLoader(context: RouteContext): () => Promise<Customer> {
  let loaded: Promise<Customer> | undefined;
  return () =>
    (loaded ??= withCustomer(context, () =>
      context.upstream.customer(context.identity.reference, undefined, context.call),
    ));
}

/** GET /portal: what ServicePortal.open needs for the page. */
export async function getPortal(context: RouteContext): Promise<PortalResponse> {
  const page = parsePortalQuery(context.url);
  const query = await pageQuery(context, page, customerLoader(context));
  const { options } = context;
  return {
    scriptUrl: options.portalScriptUrl,
    hostedOrigin: options.hostedOrigin,
    params: {
      business_id: options.businessId,
      segment_ref: options.segment,
      customer_ref: context.identity.reference,
      query,
      hash: await portalHash(context.identity.reference, options.portalSecret),
    },
  };
}

/** Appends `pa_query` to the installation URL, keeping whatever it already has (relative or absolute). */
export function withPaQuery(home: string, query: string): string {
  const base = 'http://relative.invalid';
  const url = new URL(home, base);
  url.searchParams.set('pa_query', query);
  const absolute = /^[a-z][a-z0-9+.-]*:/i.test(home);
  return absolute ? url.href : url.href.slice(base.length);
}

/** GET /links: the page as an in-site address (installation URL + pa_query). */
export async function getLinks(context: RouteContext): Promise<LinksResponse> {
  const page = parsePortalQuery(context.url);
  const customer = customerLoader(context);
  const query = await pageQuery(context, page, customer);
  const home = findLink((await customer()).Links, 'insite-home')?.href;
  if (home === undefined || home === '')
    throw unavailablePage('No installation URL is configured for in-site links.');
  return { url: withPaQuery(home, query), hostedOrigin: context.options.hostedOrigin };
}
