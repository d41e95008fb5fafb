import { expect } from '@open-wc/testing';
import { changePlan, getPlanQuote } from '../../src/client/plan-client.js';
import { getProxyClient } from '../../src/client/proxy-client.js';
import { freshStart, serviceApi, failure } from '../browser/billing.js';

// The plan routes of the proxy client, against the real proxy and sandbox: the offers, the
// quote of a move, and the move itself, once per key.

interface ServiceSubscription {
  ReferenceOffer: string;
  ReferenceOfferAfterTerm?: string;
}

async function subscriptionOf(customer: string): Promise<ServiceSubscription> {
  return serviceApi<ServiceSubscription>(`Subscription?ReferenceCustomer=${customer}`);
}

describe('proxy client: plans', () => {
  beforeEach(() => freshStart('healthy'));

  it('lists the offers of the grid with the current one marked', async () => {
    const { offers } = await getProxyClient().getOffers();
    expect(offers.map((offer) => offer.ReferenceOffer)).to.deep.equal([
      'starter',
      'pro',
      'business',
    ]);
    expect(
      offers.filter((offer) => offer.IsCurrent).map((offer) => offer.ReferenceOffer),
    ).to.deep.equal(['pro']);
  });

  it('quotes a move without making it', async () => {
    const quote = await getPlanQuote({ offer: 'business' });
    expect(quote.ReferenceOffer).to.equal('business');
    expect(quote.IsImmediate).to.equal(true);
    expect(quote.AmountTotalDue).to.be.greaterThan(0);
    expect(quote.NextTerm.AmountTotal).to.equal(19900);
    expect((await subscriptionOf('healthy')).ReferenceOffer).to.equal('pro');
  });

  it('changes the plan once per key, replaying the outcome to a retry', async () => {
    const quote = await getPlanQuote({ offer: 'business' });
    const request = {
      offer: 'business',
      idempotencyKey: 'client-plan-change-0001',
      confirmedAmountTotal: quote.AmountTotalDue,
      confirmedNextTermAmountTotal: quote.NextTerm.AmountTotal,
    };
    const first = await changePlan(request);
    expect(first.offer).to.equal('business');
    expect(first.replayed).to.equal(false);
    const again = await changePlan(request);
    expect(again.replayed).to.equal(true);
    expect((await subscriptionOf('healthy')).ReferenceOffer).to.equal('business');
  });

  it('carries the new quote of a price that changed, and changes nothing', async () => {
    const quote = await getPlanQuote({ offer: 'business' });
    const error = await failure(
      changePlan({
        offer: 'business',
        idempotencyKey: 'client-plan-change-0002',
        confirmedAmountTotal: quote.AmountTotalDue + 100,
        confirmedNextTermAmountTotal: quote.NextTerm.AmountTotal,
      }),
    );
    expect(error.code).to.equal('price-changed');
    expect(error.status).to.equal(409);
    expect(error.quote?.AmountTotalDue).to.equal(quote.AmountTotalDue);
    expect((await subscriptionOf('healthy')).ReferenceOffer).to.equal('pro');
  });

  it('tells an offer on request and a customer without subscription apart', async () => {
    const onRequest = await failure(getPlanQuote({ offer: 'enterprise' }));
    expect(onRequest.code).to.equal('offer-on-request');
    await freshStart('no-subscription');
    const none = await failure(getPlanQuote({ offer: 'pro' }));
    expect(none.code).to.equal('no-subscription');
    expect(none.status).to.equal(404);
  });
});
