import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultFixtures } from '../../src/sandbox/index.js';
import { link, usageBody, useTestSandbox } from './helpers.js';
import { completedWorkflow, findLink, forms, GOOD_CARD, openPage, submit } from './hosted-pages.js';

// The hosted pages driven like a browser: GET a page, POST its form, follow its links.

describe('hosted pages', () => {
  const t = useTestSandbox();

  const subscription = async (customer: string) =>
    (await t.api('GET', `/v1/Subscription?ReferenceCustomer=${customer}`)).body;
  const portalOf = async (customer: string) =>
    openPage(link(await subscription(customer), 'hosted-related-subscription').href ?? '');
  const price = (customer: string, feature = 'seats', increment = 1) =>
    t.api('POST', '/v1/Pricing/Usage', usageBody(customer, feature, { Increment: increment }));

  it('register: a payment method added on the page makes PaymentSettings.Missing go away', async () => {
    const before = await price('no-payment-method');
    assert.equal(before.body.Code, 'Error.Customer.PaymentSettings.Missing');

    const portal = await portalOf('no-payment-method');
    const register = await openPage(findLink(portal, 'Payment method'));
    assert.equal(register.status, 200);
    assert.match(register.html, /No payment method on file/);
    assert.equal(completedWorkflow(register), null);
    // Labels for every input.
    for (const name of ['name', 'email', 'cardNumber', 'cardExpiry', 'cardCvc', 'cardHolder']) {
      assert.match(register.html, new RegExp(`<label for="f-${name}">`), name);
    }

    // A wrong card: the form comes back with the errors, nothing saved.
    const wrong = await submit(register, {
      ...GOOD_CARD,
      cardNumber: '4242 4242 4242 4241',
      cardExpiry: '01/20',
      email: 'nope',
    });
    assert.equal(wrong.status, 422);
    assert.match(wrong.html, /role="alert"/);
    assert.match(wrong.html, /This card number is not valid/);
    assert.match(wrong.html, /Enter a future expiry date/);
    assert.match(wrong.html, /Enter an e-mail address/);
    assert.match(wrong.html, /aria-invalid="true"/);
    assert.doesNotMatch(wrong.html, /4242 4242 4242 4241/, 'the card number is never echoed');
    const declined = await submit(register, { ...GOOD_CARD, cardNumber: '4000 0000 0000 0002' });
    assert.equal(declined.status, 422);
    assert.match(declined.html, /The card was declined/);
    assert.equal((await t.customer('no-payment-method')).paymentMethod, 'absent');

    const saved = await submit(register, {
      ...GOOD_CARD,
      company: 'Nadia & Co',
      city: 'Lyon',
      country: 'fr',
    });
    assert.equal(saved.status, 200);
    assert.equal(completedWorkflow(saved), 'register');
    assert.match(saved.html, /Visa •••• 4242/);
    const state = await t.customer('no-payment-method');
    assert.equal(state.paymentMethod, 'valid');
    assert.equal(state.billingAddress.Company, 'Nadia & Co');
    assert.equal(state.billingAddress.Country, 'FR');

    const after = await price('no-payment-method');
    assert.equal(after.status, 200, after.text);
    // 5 of 5 seats, +1: (1000 x 1/2) = 500.
    assert.equal(after.body.AmountTotal, 500);
  });

  it('charge + restart: paying the invoices lifts the capping, a restart brings the subscription back', async () => {
    assert.equal(
      (await price('capping-reached')).body.Code,
      'Error.Customer.Billing.CappingReached',
    );
    const sub = await subscription('capping-reached');
    const restart = await openPage(link(sub, 'hosted-restart').href ?? '');
    assert.match(restart.html, /Some invoices are overdue/);

    // The page offers no restart before the invoices are paid; one posted anyway is refused on
    // the page, and changes nothing.
    assert.equal(forms(restart).length, 0);
    const refused = await fetch(restart.url, { method: 'POST' }).then(async (response) => ({
      status: response.status,
      html: await response.text(),
    }));
    assert.equal(refused.status, 403);
    assert.match(refused.html, /Pay overdue invoices first/);
    assert.equal((await subscription('capping-reached')).StateSubscription, 'SuspendedPaymentDue');

    // Pay each overdue invoice from the restart page's links (saved card).
    const state = await t.customer('capping-reached');
    for (const invoice of state.invoices) {
      const page = await openPage(
        findLink(
          await openPage(link(sub, 'hosted-restart').href ?? ''),
          `Pay ${invoice.FullNumber}`,
        ),
      );
      assert.match(page.html, new RegExp(invoice.FullNumber));
      const paid = await submit(page);
      assert.equal(paid.status, 200, paid.html);
      assert.equal(completedWorkflow(paid), 'charge');
      assert.match(paid.html, /the invoice is paid/);
    }
    const lifted = await subscription('capping-reached');
    assert.equal(lifted.IsPaymentCappingReached, false);
    assert.equal(lifted.StateSubscription, 'SuspendedPaymentDue');

    const restarted = await submit(await openPage(link(lifted, 'hosted-restart').href ?? ''));
    assert.equal(restarted.status, 200);
    assert.equal(completedWorkflow(restarted), 'restart');
    assert.equal((await subscription('capping-reached')).StateSubscription, 'Running');
    assert.equal((await price('capping-reached')).status, 200);
  });

  it("portal: the features in the elements' words, an add-on and extra seats included", async () => {
    // Before: the add-on the plan sells is one the customer can still take, not a refusal.
    const before = await portalOf('healthy');
    assert.match(before.html, /Priority support<\/th>\s*<td class="num">Add-on, not added<\/td>/);
    // A limit within the plan says what its second figure is: the seats the customer has, of
    // those the plan includes (not "in use" of anything).
    const rowOf = (html: string, label: string) =>
      new RegExp(`${label}</th>\\s*<td class="num">([^<]*)</td>`).exec(html)?.[1];
    assert.equal(rowOf(before.html, 'Seats'), '3 of 5 included');
    const href = link(await subscription('healthy'), 'hosted-related-subscription').href ?? '';
    const french = await openPage(`${href}${href.includes('?') ? '&' : '?'}lang=fr`);
    assert.equal(rowOf(french.html, 'Sièges'), '3 sur 5 inclus');
    const seats = await t.api('POST', '/v1/Usage', usageBody('healthy', 'seats', { Increment: 3 }));
    assert.equal(seats.status, 200, seats.text);
    const addOn = await t.api(
      'POST',
      '/v1/Usage',
      usageBody('healthy', 'priority-support', { IsEnabled: true }),
    );
    assert.equal(addOn.status, 200, addOn.text);
    const portal = await portalOf('healthy');
    const row = (label: string) =>
      new RegExp(`${label}</th>\\s*<td class="num">([^<]*)</td>`).exec(portal.html)?.[1];
    assert.equal(row('Seats'), '6 · 5 included + 1 extra');
    assert.equal(row('Projects'), '4 of 10 included');
    assert.equal(row('Priority support'), 'Added as an add-on');
    assert.equal(row('Single sign-on'), 'Included');
  });

  it('a billable change with a card on file is charged at once: its invoice is paid', async () => {
    const usage = await t.api('POST', '/v1/Usage', usageBody('healthy', 'seats', { Increment: 4 }));
    assert.equal(usage.status, 200, usage.text);
    // The usage answer carries no amount nor invoice: the invoice is the customer's last one.
    const issued = (await t.customer('healthy')).invoices.at(-1);
    const invoice = await t.api('GET', `/v1/Invoice/${issued.Id}`);
    assert.equal(invoice.body.StateInvoice, 'Paid');
    assert.equal(invoice.body.AmountTotal, 1000);
    assert.deepEqual(
      invoice.body.Links.map((l: { rel: string }) => l.rel),
      ['self', 'hosted-related-invoice', 'hosted-collection-invoice'],
      'a paid invoice offers no charge',
    );
    // The invoice document and the list.
    const doc = await openPage(link(invoice.body, 'hosted-related-invoice').href ?? '');
    assert.match(doc.html, new RegExp(`Invoice ${invoice.body.FullNumber}`));
    assert.match(doc.html, /Seats: 2 extra, today to December 1, 2026/);
    const list = await openPage(link(invoice.body, 'hosted-collection-invoice').href ?? '');
    assert.match(list.html, new RegExp(invoice.body.FullNumber));
  });

  it('badges an invoice past its payment limit Overdue, and a running subscription Active', async () => {
    // The fixture's two unpaid invoices were issued 45 and 20 days ago: both past 14 days.
    const [oldest] = (await t.customer('capping-reached')).invoices;
    const invoice = await t.api('GET', `/v1/Invoice/${oldest.Id}`);
    const list = await openPage(link(invoice.body, 'hosted-collection-invoice').href ?? '');
    assert.equal(list.html.match(/<span class="badge bad">Overdue<\/span>/g)?.length, 2);
    assert.doesNotMatch(list.html, /<span class="badge[^"]*">Due<\/span>/);
    const doc = await openPage(link(invoice.body, 'hosted-related-invoice').href ?? '');
    assert.match(doc.html, /<span class="badge bad">Overdue<\/span>/);
    assert.match((await portalOf('healthy')).html, /<span class="badge ok">Active<\/span>/);
  });

  it('charge: a due invoice paid with a new card saves it; paying again says it is paid', async () => {
    // Invoices the card on file failed to pay (the fixture's overdue ones).
    const due = (await t.customer('capping-reached')).invoices[0];
    const invoice = await t.api('GET', `/v1/Invoice/${due.Id}`);
    assert.equal(invoice.body.StateInvoice, 'PaymentDue');
    const charge = await openPage(link(invoice.body, 'hosted-charge').href ?? '');
    assert.match(charge.html, /Pay with the saved card/);
    assert.match(charge.html, /\$49\.00/);
    const missing = await submit(charge, { method: 'new' });
    assert.equal(missing.status, 422);
    assert.match(missing.html, /This field is required/);
    const paid = await submit(charge, {
      method: 'new',
      ...GOOD_CARD,
      cardNumber: '5555 5555 5555 4444',
      saveCard: '1',
    });
    assert.equal(paid.status, 200);
    const state = await t.customer('capping-reached');
    assert.equal(state.paymentMethodLabel, 'Mastercard •••• 4444');
    assert.equal(state.invoices[0].StateInvoice, 'Paid');
    const again = await openPage(charge.url);
    assert.match(again.html, /already paid/);
    assert.equal(completedWorkflow(again), null);
  });

  it('restart after an invalid payment method: register a card, then restart', async () => {
    const sub = await subscription('suspended');
    const restart = await openPage(link(sub, 'hosted-restart').href ?? '');
    assert.match(restart.html, /Your payment method no longer works: update it to restart./);
    const register = await openPage(findLink(restart, 'Update payment method'));
    const saved = await submit(register, GOOD_CARD);
    assert.equal(completedWorkflow(saved), 'register');
    const again = await submit(await openPage(findLink(saved, 'Restart subscription')));
    assert.equal(completedWorkflow(again), 'restart');
    assert.equal((await subscription('suspended')).StateSubscription, 'Running');
  });

  it('subscribe: the pending subscription starts once the card is given', async () => {
    const sub = await subscription('pending');
    const page = await openPage(link(sub, 'hosted-subscribe').href ?? '');
    assert.match(page.html, /<h1>Complete your subscription<\/h1>/);
    assert.match(page.html, /\$49\.00/);
    const done = await submit(page, GOOD_CARD);
    assert.equal(done.status, 200, done.html);
    assert.equal(completedWorkflow(done), 'subscribe');
    const running = await subscription('pending');
    assert.equal(running.StateSubscription, 'Running');
    assert.equal(running.DatePeriodStart, '2026-11-16T00:00:00.000Z');
    // Opening the link again shows the portal instead of a second start.
    const reopened = await openPage(page.url);
    assert.match(reopened.html, /Your subscription/);
  });

  it('offers: the catalogue lists the visible grid and subscribes to an offer', async () => {
    const customer = await t.api('GET', '/v1/Customer?ReferenceCustomer=no-subscription');
    const opened = await fetch(
      `${t.sandbox.url}/insite?pa_query=${link(customer.body, 'insite-collection-offers').query}`,
    );
    assert.equal(opened.status, 200);
    const home = await openPage(`${t.sandbox.url}/hosted/portal/x`);
    assert.equal(home.status, 404);
    // The portal of a customer without subscription points to the offers.
    const offers = await openPage(
      findLink(await openFirstPortal('no-subscription'), 'See the plans'),
    );
    for (const title of ['Starter', 'Pro', 'Business'])
      assert.match(offers.html, new RegExp(`>${title}</h2>`));
    assert.doesNotMatch(offers.html, />Enterprise</, 'not in the visible grid');
    const subscribe = await openPage(findLink(offers, 'Subscribe Starter'));
    const done = await submit(subscribe, GOOD_CARD);
    assert.equal(completedWorkflow(done), 'subscribe');
    const sub = await subscription('no-subscription');
    assert.equal(sub.ReferenceOffer, 'starter');
    assert.equal(sub.StateSubscription, 'Running');
  });

  async function openFirstPortal(customer: string) {
    const index = await openPage(`${t.sandbox.url}/`);
    const row = new RegExp(`<code>${customer}</code>[\\s\\S]*?href="([^"]+)"`).exec(index.html);
    if (!row?.[1]) throw new Error('no portal link on the index');
    return openPage(row[1]);
  }

  it('upgrade: the table switches the plan and charges the prorated difference', async () => {
    const sub = await subscription('healthy');
    const table = await openPage(link(sub, 'hosted-upgrade').href ?? '');
    // Pro -> Business: (19900 - 4900) x 1/2 = 7500 due now, confirmed at that price first.
    assert.match(table.html, /<th scope="row">Business[\s\S]*?\$199\.00[\s\S]*?\$75\.00/);
    const review = await submit(table, {}, 'value="offer:business"');
    assert.match(review.html, /Confirm and pay \$75\.00/);
    const done = await submit(review, {}, 'name="confirm"');
    assert.equal(done.status, 200, done.html);
    assert.equal(completedWorkflow(done), 'upgrade');
    assert.match(done.html, /\$75\.00/);
    assert.equal((await subscription('healthy')).ReferenceOffer, 'business');
    // A forged choice is refused.
    const forged = await submit(table, { choice: 'offer:gold' });
    assert.equal(forged.status, 422);
  });

  it('upgrade without payment method: refused on the page with a link to add one', async () => {
    const sub = await subscription('no-payment-method');
    const preview = await t.api(
      'GET',
      `/v1/Subscription/${sub.Id}/Upgrade?ReferenceOffer=business`,
    );
    const page = await openPage(link(preview.body, 'hosted-upgrade').href ?? '');
    assert.equal(forms(page).length, 1, 'only the chosen offer');
    const refused = await submit(page);
    assert.equal(refused.status, 403);
    assert.match(refused.html, /Add a payment method/);
    assert.equal((await subscription('no-payment-method')).ReferenceOffer, 'pro');
  });

  it('words the page for the one plan a link chose, as its change applies', async () => {
    const sub = await subscription('healthy');
    const table = await openPage(link(sub, 'hosted-upgrade').href ?? '');
    assert.match(table.html, /Every plan you can switch to/);
    // Pro to Business costs more: charged now. Pro to Starter costs less: from the next period.
    for (const [offer, lead] of [
      ['business', /the difference in price is charged now for the rest of the current period/],
      ['starter', /the new price starts with the next period/],
    ] as const) {
      const preview = await t.api(
        'GET',
        `/v1/Subscription/${sub.Id}/Upgrade?ReferenceOffer=${offer}`,
      );
      const page = await openPage(link(preview.body, 'hosted-upgrade').href ?? '');
      assert.equal(forms(page).length, 1, 'only the chosen offer');
      assert.doesNotMatch(page.html, /Every plan/);
      assert.match(page.html, lead);
    }
  });

  it('conclude: the customer accepts the custom subscription prepared for them', async () => {
    const custom = (await t.customer('healthy')).subscriptions.find(
      (s: { custom: boolean }) => s.custom,
    );
    const targeted = await t.api(
      'GET',
      `/v1/Subscription/${custom.Id}/?IdSubscriptionToUpgrade=1001`,
    );
    const page = await openPage(link(targeted.body, 'hosted-conclude').href ?? '');
    assert.match(page.html, /Your custom offer/);
    const review = await submit(page);
    assert.match(review.html, /Confirm the change/);
    const done = await submit(review, {}, 'name="confirm"');
    assert.equal(completedWorkflow(done), 'upgrade');
    assert.equal((await subscription('healthy')).ReferenceOffer, 'enterprise');
  });

  it('refuses forged, altered and other pages’ tokens with a 404 page', async () => {
    const href = link(await subscription('healthy'), 'hosted-upgrade').href ?? '';
    const token = href.split('/').pop() ?? '';
    const flipped = token.slice(0, 20) + (token[20] === 'A' ? 'B' : 'A') + token.slice(21);
    for (const url of [
      href.replace(token, flipped),
      href.replace('/upgrade/', '/restart/'),
      `${t.sandbox.hostedUrl}/portal/${'A'.repeat(60)}`,
      `${t.sandbox.hostedUrl}/nothing/${token}`,
    ]) {
      const page = await openPage(url);
      assert.equal(page.status, 404, url);
      assert.match(page.html, /This link cannot be opened/);
    }
    // An in-site query is not a hosted token either.
    const customer = await t.api('GET', '/v1/Customer?ReferenceCustomer=healthy');
    const query = link(customer.body, 'insite-register').query;
    assert.equal((await openPage(`${t.sandbox.hostedUrl}/register/${query}`)).status, 404);
  });

  it('renders in French and escapes every value', async () => {
    const portal = await openPage(
      `${link(await subscription('healthy'), 'hosted-related-subscription').href}?lang=fr`,
    );
    assert.match(portal.html, /<html lang="fr">/);
    assert.match(portal.html, /Votre abonnement/);
    assert.match(portal.html, /49,00\s\$US/u);
    const byHeader = await openPage(
      link(await subscription('healthy'), 'hosted-related-subscription').href ?? '',
      { 'accept-language': 'fr' },
    );
    assert.match(byHeader.html, /Votre abonnement/);
  });
});

describe('hosted pages escape customer data', () => {
  const fixtures = defaultFixtures();
  const healthy = fixtures.customers?.find((c) => c.reference === 'healthy');
  if (!healthy) throw new Error('fixture changed');
  healthy.name = '<script>alert("x")</script> & "Co"';
  const t = useTestSandbox({ fixtures });

  it('shows a hostile name as text', async () => {
    const sub = (await t.api('GET', '/v1/Subscription?ReferenceCustomer=healthy')).body;
    const page = await openPage(link(sub, 'hosted-related-subscription').href ?? '');
    assert.doesNotMatch(page.html, /<script>alert/);
    assert.match(
      page.html,
      /&lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt; &amp; &quot;Co&quot;/,
    );
  });
});

describe('register page with a card on file', () => {
  const t = useTestSandbox();

  it('updates the contact details and keeps the card when the card fields stay empty', async () => {
    const sub = (await t.api('GET', '/v1/Subscription?ReferenceCustomer=healthy')).body;
    const portal = await openPage(link(sub, 'hosted-related-subscription').href ?? '');
    const register = await openPage(findLink(portal, 'Payment method'));
    assert.match(register.html, /Leave the card fields empty to keep the current card/);
    const saved = await submit(register, { email: 'hannah.new@example.com' });
    assert.equal(saved.status, 200, saved.html);
    const state = await t.customer('healthy');
    assert.equal(state.customer.Email, 'hannah.new@example.com');
    assert.equal(state.paymentMethodLabel, 'Visa •••• 4242');
  });
});

describe('subscribe page beside a started subscription', () => {
  const t = useTestSandbox();

  /** The hosted page of a Customer's in-site link, opened through the portal script's route. */
  const hostedPageUrl = async (customer: string, rel: string, offer?: string) => {
    const found = await t.api(
      'GET',
      `/v1/Customer?ReferenceCustomer=${customer}${offer ? `&ReferenceOffer=${offer}` : ''}`,
    );
    const query = link(found.body, rel).query ?? '';
    const { portalHash } = await import('../../src/sandbox/index.js');
    const params = new URLSearchParams({
      business_id: '4242',
      segment_ref: 'main',
      customer_ref: customer,
      query,
      hash: portalHash(customer, t.sandbox.portalSecret),
    });
    const opened = await fetch(`${t.sandbox.url}/portal/open?${params}`).then((r) => r.json());
    return opened.url as string;
  };

  for (const [customer, state] of [
    ['healthy', 'running'],
    ['capping-reached', 'suspended with overdue invoices'],
  ] as const) {
    it(`offers the plan change, never a second subscription (${state})`, async () => {
      const url = await hostedPageUrl(customer, 'insite-subscribe', 'business');
      const before = await t.customer(customer);
      const page = await openPage(url);
      assert.equal(page.status, 200);
      assert.match(page.html, /data-started-first/);
      assert.match(page.html, /You already have the Pro plan/);
      assert.equal(forms(page).length, 0, 'no form to start a second subscription');
      // The refusal is final: it does not ask for itself again when seen (data-recheck).
      assert.doesNotMatch(page.html, /<body[^>]*data-recheck/);
      const change = await openPage(findLink(page, 'Change plan'));
      assert.equal(change.status, 200);
      assert.match(change.html, /<h1>Change plan<\/h1>/);

      // A form opened before the subscription started (another tab) is refused before the
      // card is read: nothing changes.
      const stale = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(GOOD_CARD).toString(),
      });
      assert.equal(stale.status, 409);
      assert.match(await stale.text(), /You already have the Pro plan/);
      assert.deepEqual(await t.customer(customer), before);
    });
  }

  it('a checkout asks for itself again when seen, until a subscription started', async () => {
    // The same checkout link, before and after a subscription starts elsewhere: the form page
    // is marked to be read again when it comes back into view (the layout's frame script), and
    // reading it again then gives the refusal, without a form.
    const url = await hostedPageUrl('no-subscription', 'insite-subscribe', 'starter');
    const before = await openPage(url);
    assert.equal(before.status, 200);
    assert.match(before.html, /<body[^>]*data-recheck/);
    assert.equal(forms(before).length, 1);
    const started = await t.api('POST', '/v1/Subscription', {
      ReferenceCustomer: 'no-subscription',
      ReferenceOffer: 'pro',
    });
    assert.ok(started.status < 300, started.text);
    const after = await openPage(url);
    assert.equal(after.status, 200);
    assert.doesNotMatch(after.html, /<body[^>]*data-recheck/);
    assert.equal(forms(after).length, 0);
    assert.match(after.html, /data-started-first|data-pending-first/);
  });

  it('the API refuses a second subscription with Error.Subscription.Exists', async () => {
    const before = await t.customer('healthy');
    const refused = await t.api('POST', '/v1/Subscription', {
      ReferenceCustomer: 'healthy',
      ReferenceOffer: 'business',
    });
    assert.equal(refused.status, 409, refused.text);
    assert.equal(refused.body.Code, 'Error.Subscription.Exists');
    assert.match(refused.body.Message, /change its offer instead/);
    assert.deepEqual(await t.customer('healthy'), before);
  });

  it('the offers page of a subscribed customer sells no second subscription', async () => {
    const offers = await openPage(await hostedPageUrl('healthy', 'insite-collection-offers'));
    assert.equal(offers.status, 200);
    assert.match(offers.html, /data-started-first/);
    assert.doesNotMatch(offers.html, />\s*Subscribe\s*</);
    assert.match(findLink(offers, 'Change plan'), /\/hosted\/upgrade\//);
  });
});
