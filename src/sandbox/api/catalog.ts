import type { CatalogOffer } from '../catalog.js';
import type { SandboxContext } from '../context.js';
import { ApiError, notFound, ValidationError } from '../http/errors.js';
import { json } from '../http/io.js';
import type { RequestContext, Router } from '../http/router.js';
import type { CustomerRecord, SubscriptionRecord } from '../state/types.js';
import { paged, pageParams } from './paging.js';
import { presentCatalogFeature, presentOffer, type CatalogView } from './present-catalog.js';
import { resolveLanguage } from './present.js';
import { boolParam, idParam, requiredParam } from './validate.js';

// The catalogue: offers (paged list and one) and features (paged list and one).

function invalid(message: string, target: string): ValidationError {
  return new ValidationError([{ Code: 'Error.Api.Validation', Message: message, Target: target }]);
}

/** The customer and subscription a request names (ReferenceCustomer, IdSubscription). */
function audience(
  ctx: SandboxContext,
  rc: RequestContext,
): { customer?: CustomerRecord; subscription?: SubscriptionRecord } {
  const { store } = ctx;
  const customerRef = rc.query.get('ReferenceCustomer');
  const subscriptionRaw = rc.query.get('IdSubscription');
  const named = customerRef ? store.customer(customerRef) : undefined;
  if (subscriptionRaw !== null) {
    const subscription = store.subscription(idParam(subscriptionRaw, 'IdSubscription'));
    if (subscription.custom || (named && subscription.customerId !== named.id)) {
      throw notFound(
        'Error.Subscription.NotFound',
        `No subscription ${subscription.id}${named ? ` for customer '${named.reference}'` : ''}.`,
        'IdSubscription',
      );
    }
    return { customer: named ?? store.customerById(subscription.customerId), subscription };
  }
  if (!named) return {};
  const main = store.mainSubscription(named.id);
  return main ? { customer: named, subscription: main } : { customer: named };
}

/** How offers and features are shown: language, segment, HTML or text, lighter answers. */
function catalogView(
  ctx: SandboxContext,
  rc: RequestContext,
  who: { customer?: CustomerRecord | undefined; subscription?: SubscriptionRecord | undefined },
): CatalogView {
  const segmentRef = rc.query.get('ReferenceSegment');
  if (segmentRef && !ctx.catalog.segments.has(segmentRef)) {
    throw invalid(`Unknown segment '${segmentRef}'.`, 'ReferenceSegment');
  }
  const segment = ctx.catalog.segmentOf(segmentRef || (who.customer?.segment ?? ''));
  return {
    lang: resolveLanguage(ctx, rc, who.customer),
    segment,
    html: boolParam(rc.query, 'Html') ?? true,
    pricing: boolParam(rc.query, 'Pricing') ?? true,
    links: boolParam(rc.query, 'Links') ?? true,
    features: !(boolParam(rc.query, 'IgnoreFeatures') ?? false),
    customer: who.customer,
    subscription: who.subscription,
  };
}

export function registerCatalogRoutes(router: Router, ctx: SandboxContext): void {
  const { catalog } = ctx;

  router.add('GET', '/v1/Offers', (rc) => {
    const page = pageParams(rc.query, { minSize: 0 });
    if (rc.query.get('ReferencePricingTable')) {
      throw invalid(
        'The sandbox has no pricing tables: its one visible offer grid is IsVisible=true.',
        'ReferencePricingTable',
      );
    }
    const who = audience(ctx, rc);
    const view = catalogView(ctx, rc, who);
    const upgrade = boolParam(rc.query, 'Upgrade') ?? false;
    const visible = boolParam(rc.query, 'IsVisible');
    const prefix = rc.query.get('PrefixReferenceOffer') ?? '';
    let offers: CatalogOffer[] = [...catalog.offers.values()];
    if (upgrade) {
      const { subscription } = who;
      if (!who.customer) {
        throw invalid('Upgrade=true needs ReferenceCustomer or IdSubscription.', 'Upgrade');
      }
      if (!subscription) {
        throw notFound(
          'Error.Subscription.NotFound',
          `Customer '${who.customer.reference}' has no subscription to move.`,
          'ReferenceCustomer',
        );
      }
      // What the subscription can move to by itself: the upgrade table's offers (the visible
      // grid and the other switchable ones), not its own, not those sold on request.
      offers = catalog
        .switchableOffers()
        .filter((o) => o.reference !== subscription.offer && !o.onRequest);
    }
    if (visible !== undefined) offers = offers.filter((o) => o.inGrid === visible);
    if (prefix) offers = offers.filter((o) => o.reference.startsWith(prefix));
    const listed = paged(offers, page);
    return json(200, { ...listed, Items: listed.Items.map((o) => presentOffer(ctx, o, view)) });
  });

  router.add('GET', '/v1/Offer', (rc) => {
    const reference = requiredParam(rc.query, 'ReferenceOffer');
    const offer = catalog.offers.get(reference);
    if (!offer) {
      throw notFound(
        'Error.Offer.NotFound',
        `No offer with reference '${reference}'.`,
        'ReferenceOffer',
      );
    }
    const who = audience(ctx, rc);
    return json(200, presentOffer(ctx, offer, catalogView(ctx, rc, who)));
  });

  router.add('GET', '/v1/Features', (rc) => {
    const page = pageParams(rc.query, { minSize: 0 });
    const view = catalogView(ctx, rc, {});
    const withOffers = !(boolParam(rc.query, 'IgnoreOffers') ?? false);
    const type = rc.query.get('TypeFeature');
    const features = [...catalog.features.values()].filter((f) => !type || f.type === type);
    const listed = paged(features, page);
    return json(200, {
      ...listed,
      Items: listed.Items.map((f) => presentCatalogFeature(ctx, f, view, withOffers)),
    });
  });

  router.add('GET', '/v1/Feature', (rc) => {
    const reference = requiredParam(rc.query, 'ReferenceFeature');
    const feature = catalog.features.get(reference);
    if (!feature) {
      throw new ApiError(
        404,
        'Error.Feature.NotFound',
        `No feature with reference '${reference}'.`,
        'ReferenceFeature',
      );
    }
    const withOffers = !(boolParam(rc.query, 'IgnoreOffers') ?? false);
    return json(200, presentCatalogFeature(ctx, feature, catalogView(ctx, rc, {}), withOffers));
  });
}
