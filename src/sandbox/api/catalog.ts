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
  request: RequestContext,
): { customer?: CustomerRecord; subscription?: SubscriptionRecord } {
  const { store } = ctx;
  const customerRef = request.query.get('ReferenceCustomer');
  const subscriptionRaw = request.query.get('IdSubscription');
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
  request: RequestContext,
  who: { customer?: CustomerRecord | undefined; subscription?: SubscriptionRecord | undefined },
): CatalogView {
  const segmentRef = request.query.get('ReferenceSegment');
  if (segmentRef && !ctx.catalog.segments.has(segmentRef)) {
    throw invalid(`Unknown segment '${segmentRef}'.`, 'ReferenceSegment');
  }
  const segment = ctx.catalog.segmentOf(segmentRef || (who.customer?.segment ?? ''));
  return {
    lang: resolveLanguage(ctx, request, who.customer),
    segment,
    html: boolParam(request.query, 'Html') ?? true,
    pricing: boolParam(request.query, 'Pricing') ?? true,
    links: boolParam(request.query, 'Links') ?? true,
    features: !(boolParam(request.query, 'IgnoreFeatures') ?? false),
    customer: who.customer,
    subscription: who.subscription,
  };
}

export function registerCatalogRoutes(router: Router, ctx: SandboxContext): void {
  const { catalog } = ctx;

  router.add('GET', '/v1/Offers', (request) => {
    const page = pageParams(request.query, { minSize: 0 });
    if (request.query.get('ReferencePricingTable')) {
      throw invalid(
        'The sandbox has no pricing tables: its one visible offer grid is IsVisible=true.',
        'ReferencePricingTable',
      );
    }
    const who = audience(ctx, request);
    const view = catalogView(ctx, request, who);
    const upgrade = boolParam(request.query, 'Upgrade') ?? false;
    const visible = boolParam(request.query, 'IsVisible');
    const prefix = request.query.get('PrefixReferenceOffer') ?? '';
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

  router.add('GET', '/v1/Offer', (request) => {
    const reference = requiredParam(request.query, 'ReferenceOffer');
    const offer = catalog.offers.get(reference);
    if (!offer) {
      throw notFound(
        'Error.Offer.NotFound',
        `No offer with reference '${reference}'.`,
        'ReferenceOffer',
      );
    }
    const who = audience(ctx, request);
    return json(200, presentOffer(ctx, offer, catalogView(ctx, request, who)));
  });

  router.add('GET', '/v1/Features', (request) => {
    const page = pageParams(request.query, { minSize: 0 });
    const view = catalogView(ctx, request, {});
    const withOffers = !(boolParam(request.query, 'IgnoreOffers') ?? false);
    const type = request.query.get('TypeFeature');
    const features = [...catalog.features.values()].filter((f) => !type || f.type === type);
    const listed = paged(features, page);
    return json(200, {
      ...listed,
      Items: listed.Items.map((f) => presentCatalogFeature(ctx, f, view, withOffers)),
    });
  });

  router.add('GET', '/v1/Feature', (request) => {
    const reference = requiredParam(request.query, 'ReferenceFeature');
    const feature = catalog.features.get(reference);
    if (!feature) {
      throw new ApiError(
        404,
        'Error.Feature.NotFound',
        `No feature with reference '${reference}'.`,
        'ReferenceFeature',
      );
    }
    const withOffers = !(boolParam(request.query, 'IgnoreOffers') ?? false);
    return json(
      200,
      presentCatalogFeature(ctx, feature, catalogView(ctx, request, {}), withOffers),
    );
  });
}
