import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { link, useTestSandbox } from './helpers.js';
import { findLink, forms, GOOD_CARD, openPage, openQuery, submit } from './hosted-pages.js';

// A customer whose subscription waits for its checkout (`pending`, Paula, on Pro) has a
// subscription: the portal shows it and offers to complete it, and no page or API call starts
// a second one beside it.

describe('portal of a customer whose subscription is pending', () => {
  const t = useTestSandbox();

  const customerLinks = async (offer?: string) =>
    (
      await t.api(
        'GET',
        `/v1/Customer?ReferenceCustomer=pending${offer ? `&ReferenceOffer=${offer}` : ''}`,
      )
    ).body;

  it('the portal home shows the pending subscription and offers to complete it', async () => {
    const sub = (await t.api('GET', '/v1/Subscription?ReferenceCustomer=pending')).body;
    assert.equal(sub.StateSubscription, 'PendingSubscription');
    const home = await openQuery(
      t,
      'pending',
      link(sub, 'insite-related-subscription').query ?? '',
    );
    assert.equal(home.status, 200);
    assert.match(home.html, />Your subscription</);
    assert.match(home.html, /Pro/);
    assert.match(home.html, /Waiting to be completed/);
    assert.doesNotMatch(home.html, /Choose a plan/);
    const checkout = await openPage(findLink(home, 'Complete your subscription'));
    assert.match(checkout.html, /\$49\.00/, 'the pending Pro checkout');
  });

  it('the offers page refuses a second subscription and points to the pending one', async () => {
    const offers = await openQuery(
      t,
      'pending',
      link(await customerLinks(), 'insite-collection-offers').query ?? '',
    );
    assert.equal(offers.status, 200);
    assert.match(offers.html, /Your subscription to Pro is waiting to be completed/);
    assert.throws(() => findLink(offers, 'Subscribe'), /no link with text "Subscribe"/);
    const checkout = await openPage(findLink(offers, 'Complete your subscription'));
    assert.match(checkout.html, /\$49\.00/);
  });

  it('subscribing to another plan is refused on the page and on its POST, changing nothing', async () => {
    const query = link(await customerLinks('starter'), 'insite-subscribe').query ?? '';
    const page = await openQuery(t, 'pending', query);
    assert.match(page.html, /Your subscription to Pro is waiting to be completed/);
    assert.equal(forms(page).length, 0, 'no form to subscribe to Starter');
    const before = await t.customer('pending');
    // The POST a stale or forged form would send is refused too, before the card is read.
    const refused = await fetch(page.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...GOOD_CARD, cardHolder: 'Paula Pending' }).toString(),
    });
    assert.equal(refused.status, 409);
    assert.match(await refused.text(), /Your subscription to Pro is waiting to be completed/);
    assert.deepEqual(await t.customer('pending'), before);
    const still = (await t.api('GET', '/v1/Subscription?ReferenceCustomer=pending')).body;
    assert.equal(still.ReferenceOffer, 'pro');
    assert.equal(still.StateSubscription, 'PendingSubscription');
  });

  it('says the pending subscription has no period yet, and what completing it charges', async () => {
    const sub = (await t.api('GET', '/v1/Subscription?ReferenceCustomer=pending')).body;
    const home = await openQuery(
      t,
      'pending',
      link(sub, 'insite-related-subscription').query ?? '',
    );
    assert.doesNotMatch(home.html, /Current period/);
    assert.match(home.html, /Not started yet: the first period begins when you complete/);
    const checkout = await openPage(findLink(home, 'Complete your subscription'));
    const due = /<section class="card" data-due-now>([\s\S]*?)<\/section>/.exec(checkout.html)?.[1];
    assert.ok(due, 'the checkout says what is due now');
    const said = due
      .replace(/<[^>]+>/g, '')
      .replace(/[ \n]+/g, ' ')
      .trim();
    const renews = /Then \$49\.00\u00a0\/\u00a0month from ([A-Z][a-z]+ \d+, \d{4})\./.exec(
      said,
    )?.[1];
    assert.match(said, /^Due now: \$49\.00 /);
    assert.ok(renews, said);
    // What the page said is what completing charges, and when the subscription renews.
    const done = await submit(checkout, GOOD_CARD);
    assert.equal(done.status, 200, done.html);
    const invoices = (await t.customer('pending')).invoices as { AmountTotal: number }[];
    assert.deepEqual(
      invoices.map((i) => i.AmountTotal),
      [4900],
    );
    const running = (await t.api('GET', '/v1/Subscription?ReferenceCustomer=pending')).body;
    const end = new Date(running.DatePeriodEnd).toLocaleDateString('en-US', {
      dateStyle: 'long',
      timeZone: 'UTC',
    });
    assert.equal(renews, end);
  });

  it('the no-plan customer’s checkout says what is due now too', async () => {
    const links = (
      await t.api('GET', '/v1/Customer?ReferenceCustomer=no-subscription&ReferenceOffer=pro')
    ).body;
    const page = await openQuery(t, 'no-subscription', link(links, 'insite-subscribe').query ?? '');
    assert.match(page.html, /data-due-now/);
    assert.match(page.html.replace(/<[^>]+>/g, ''), /Due now:\s*\$49\.00/);
  });

  it('the pending checkout itself still completes', async () => {
    const sub = (await t.api('GET', '/v1/Subscription?ReferenceCustomer=pending')).body;
    const done = await submit(await openPage(link(sub, 'hosted-subscribe').href ?? ''), GOOD_CARD);
    assert.equal(done.status, 200, done.html);
    const running = (await t.api('GET', '/v1/Subscription?ReferenceCustomer=pending')).body;
    assert.equal(running.StateSubscription, 'Running');
    assert.equal(running.Id, sub.Id);
  });

  it('the API refuses a second subscription while one is pending; the same offer answers it', async () => {
    const before = await t.customer('pending');
    const refused = await t.api('POST', '/v1/Subscription', {
      ReferenceCustomer: 'pending',
      ReferenceOffer: 'starter',
    });
    assert.equal(refused.status, 409, refused.text);
    assert.equal(refused.body.Code, 'Error.Subscription.Pending');
    assert.match(refused.body.Message, /waiting to start: complete it/);
    assert.deepEqual(await t.customer('pending'), before);
    const same = await t.api('POST', '/v1/Subscription', {
      ReferenceCustomer: 'pending',
      ReferenceOffer: 'pro',
    });
    assert.equal(same.status, 201, same.text);
    const pending = (await t.api('GET', '/v1/Subscription?ReferenceCustomer=pending')).body;
    assert.equal(same.body.Id, pending.Id);
  });
});
