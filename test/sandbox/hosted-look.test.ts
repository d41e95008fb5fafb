import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { portalHash } from '../../src/sandbox/index.js';
import { link, startTestSandbox, type TestSandbox } from './helpers.js';
import { completedWorkflow, findLink, forms, GOOD_CARD, openPage, submit } from './hosted-pages.js';

// The hosted pages the portal shows: they take the embedding page's color scheme and
// accent, ask for a confirmation with the price before a paid plan switch, and never offer a
// restart that cannot work yet.

describe('hosted pages: look and confirmations', () => {
  let t: TestSandbox;
  before(async () => {
    t = await startTestSandbox();
  });
  after(() => t.close());
  beforeEach(() => t.control('POST', '/reset'));

  const subscription = async (customer: string) =>
    (await t.api('GET', `/v1/Subscription?ReferenceCustomer=${customer}`)).body;
  const hostedLink = async (customer: string, rel: string) =>
    link(await subscription(customer), rel).href ?? '';

  it('follows the theme and accent it is given, and keeps them on its links and forms', async () => {
    const href = await hostedLink('healthy', 'hosted-related-subscription');
    const dark = await openPage(`${href}?theme=dark&accent=%23aa3355&lang=fr`);
    assert.equal(dark.status, 200);
    assert.match(dark.html, /<html lang="fr" data-theme="dark">/);
    // After the dark theme's own accent, and as specific: the given one wins.
    assert.match(dark.html, /:root\[data-theme="dark"\][\s\S]*:root\[lang\] \{ --accent: #aa3355;/);
    // Dark text on a light accent, light text on a dark one.
    assert.match(dark.html, /--accent-ink: #ffffff;/);
    const upgrade = findLink(dark, 'Changer d’offre');
    const params = new URL(upgrade).searchParams;
    assert.deepEqual(
      [params.get('theme'), params.get('accent'), params.get('lang')],
      ['dark', '#aa3355', 'fr'],
    );
    const table = await openPage(upgrade);
    for (const form of forms(table))
      assert.match(form.action, /theme=dark/, 'the form posts back in the same look');

    const pale = await openPage(`${href}?theme=light&accent=%23f5d90a`);
    assert.match(pale.html, /data-theme="light"/);
    assert.match(pale.html, /--accent-ink: #111111;/);
  });

  it('refuses what is not a theme or a colour, and follows the system without a theme', async () => {
    const href = await hostedLink('healthy', 'hosted-related-subscription');
    const odd = await openPage(`${href}?theme=purple&accent=${encodeURIComponent('red;}body{')}`);
    assert.equal(odd.status, 200);
    assert.doesNotMatch(odd.html, /<html[^>]*data-theme/);
    assert.doesNotMatch(odd.html, /body\{/);
    assert.doesNotMatch(odd.html, /--accent: red/);
    assert.match(odd.html, /@media \(prefers-color-scheme: dark\)/);
  });

  it('passes the theme and accent of ServicePortal.open to the page it opens', async () => {
    const customer = await t.api('GET', '/v1/Customer?ReferenceCustomer=healthy');
    const query = link(customer.body, 'insite-register').query ?? '';
    const hash = portalHash('healthy', t.sandbox.portalSecret);
    const search = new URLSearchParams({
      business_id: String(t.sandbox.businessId),
      segment_ref: t.sandbox.segment,
      customer_ref: 'healthy',
      query,
      hash,
      theme: 'dark',
      accent: '#aa3355',
    });
    const opened = await fetch(`${t.sandbox.url}/portal/open?${search}`);
    assert.equal(opened.status, 200);
    const { url } = (await opened.json()) as { url: string };
    const params = new URL(url).searchParams;
    assert.equal(params.get('theme'), 'dark');
    assert.equal(params.get('accent'), '#aa3355');
  });

  it('asks to confirm a paid plan switch with its price, and switches only then', async () => {
    const table = await openPage(await hostedLink('healthy', 'hosted-upgrade'));
    const review = await submit(table, {}, 'value="offer:business"');
    assert.equal(review.status, 200, review.html);
    assert.equal(completedWorkflow(review), null);
    assert.match(review.html, /<h1>Confirm the change<\/h1>/);
    // Pro -> Business: (19900 - 4900) x 1/2 = 7500 due now, then 199.00 a month.
    assert.match(review.html, /\$75\.00/);
    assert.match(review.html, /\$199\.00/);
    assert.match(review.html, /Confirm and pay \$75\.00/);
    assert.equal((await subscription('healthy')).ReferenceOffer, 'pro', 'nothing switched yet');

    const done = await submit(review, {}, 'name="confirm"');
    assert.equal(done.status, 200, done.html);
    assert.equal(completedWorkflow(done), 'upgrade');
    assert.equal((await subscription('healthy')).ReferenceOffer, 'business');
  });

  it('asks again when the price changed between the confirmation and the switch', async () => {
    const table = await openPage(await hostedLink('healthy', 'hosted-upgrade'));
    const review = await submit(table, {}, 'value="offer:business"');
    const stale = await submit(review, { quoted: '1' }, 'name="confirm"');
    assert.equal(stale.status, 409);
    assert.match(stale.html, /The price has changed/);
    assert.match(stale.html, /Confirm and pay \$75\.00/);
    assert.equal((await subscription('healthy')).ReferenceOffer, 'pro');
  });

  it('refuses a paid switch without a payment method before asking to confirm it', async () => {
    const table = await openPage(await hostedLink('no-payment-method', 'hosted-upgrade'));
    const refused = await submit(table, {}, 'value="offer:business"');
    assert.equal(refused.status, 403);
    assert.doesNotMatch(refused.html, /Confirm and pay/);
    assert.match(refused.html, /Add a payment method/);
  });

  it('offers no "Restart now" while a valid card is missing, only the way to add one', async () => {
    const restart = await openPage(await hostedLink('suspended', 'hosted-restart'));
    assert.equal(restart.status, 200);
    assert.doesNotMatch(restart.html, /Restart now/);
    assert.equal(forms(restart).length, 0);
    const register = await openPage(findLink(restart, 'Update payment method'));
    const saved = await submit(register, GOOD_CARD);
    const again = await openPage(findLink(saved, 'Restart subscription'));
    assert.match(again.html, /Restart now/);
  });

  it('offers no "Restart now" while overdue invoices block it', async () => {
    const restart = await openPage(await hostedLink('capping-reached', 'hosted-restart'));
    assert.doesNotMatch(restart.html, /Restart now/);
    assert.match(restart.html, /Pay/);
  });
});
