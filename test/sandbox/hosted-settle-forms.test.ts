import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { link, MID_NOVEMBER, useTestSandbox } from './helpers.js';
import {
  completedWorkflow,
  findLink,
  forms,
  GOOD_CARD,
  openPage,
  submit,
  type HostedPageView,
} from './hosted-pages.js';

// What the hosted pages show around the money: settling several overdue invoices one after the
// other, an invoice long past its limit, a pending subscription's features, the card form (a
// card first, the contact and address folded, the country from a list), and the look and
// title they hand to the embedding page.

const DAY_MS = 86_400_000;

/** The texts of the buttons and links styled as buttons, in page order. */
function buttons(page: HostedPageView): string[] {
  return [...page.html.matchAll(/<a class="button( quiet)?"[^>]*>([\s\S]*?)<\/a\s*>/g)].map(
    (m) => `${m[1] ? 'quiet' : 'primary'}: ${(m[2] as string).replace(/\s+/g, ' ').trim()}`,
  );
}

describe('hosted pages: settling invoices, invoice states, pending features, card form', () => {
  const t = useTestSandbox();

  const subscription = async (customer: string) =>
    (await t.api('GET', `/v1/Subscription?ReferenceCustomer=${customer}`)).body;
  const home = async (customer: string, query = '') =>
    openPage(`${link(await subscription(customer), 'hosted-related-subscription').href}${query}`);

  it('settles overdue invoices one after the other, then offers the restart', async () => {
    const due = (await t.customer('capping-reached')).invoices.filter(
      (i: { StateInvoice: string }) => i.StateInvoice === 'PaymentDue',
    );
    assert.equal(due.length, 2);
    const [first, second] = due as { FullNumber: string }[];
    const charge = await openPage(findLink(await home('capping-reached'), 'Pay overdue'));
    assert.match(charge.html, new RegExp(`<dd>${first!.FullNumber}</dd>`));
    // The page of the first names the second, with its amount and its own Pay link.
    assert.match(charge.html, /Also to pay: 1 more, \$49\.00/);
    assert.match(charge.html, new RegExp(`${second!.FullNumber} · \\$49\\.00`));
    findLink(charge, `Pay ${second!.FullNumber}`);

    const paidOne = await submit(charge, {}, 'name="method"');
    assert.equal(completedWorkflow(paidOne), 'charge');
    // The next invoice leads, and the page stays about paying: no restart while one is left
    // (the cap is lifted by one payment, but the embedding dialog is about paying them).
    assert.deepEqual(buttons(paidOne).slice(0, 2), [
      `primary: Pay invoice ${second!.FullNumber}`,
      `quiet: View invoice ${first!.FullNumber}`,
    ]);
    assert.doesNotMatch(paidOne.html, /Restart/);

    const paidTwo = await submit(
      await openPage(findLink(paidOne, `Pay invoice ${second!.FullNumber}`)),
      {},
      'name="method"',
    );
    assert.equal(completedWorkflow(paidTwo), 'charge');
    assert.doesNotMatch(paidTwo.html, /Also to pay/);
    assert.equal(buttons(paidTwo)[0], 'primary: Restart subscription');
    const customer = await t.customer('capping-reached');
    assert.ok(customer.invoices.every((i: { StateInvoice: string }) => i.StateInvoice === 'Paid'));
    // Nothing is due any more: the restart page says so, and what a restart costs.
    const restart = await openPage(findLink(paidTwo, 'Restart subscription'));
    assert.match(restart.html, /<span class="badge bad">Suspended: ready to restart<\/span>/);
    assert.doesNotMatch(restart.html, /payment due/i);
    assert.match(
      restart.html,
      /Restarting costs nothing today\. Your next invoice, \$49\.00, comes on [A-Z][a-z]+ \d+, 2026\./,
    );
    const frenchUrl = new URL(findLink(paidTwo, 'Restart subscription'));
    frenchUrl.searchParams.set('lang', 'fr');
    const french = await openPage(frenchUrl.toString());
    assert.match(french.html, /Suspendu\u00a0: prêt à réactiver/);
    assert.match(
      french.html,
      /La réactivation ne coûte rien aujourd’hui\. Votre prochaine facture, 49,00\u00a0\$US, arrive le /,
    );
  });

  it('badges an invoice 31 days past its limit Overdue wherever it shows', async () => {
    const [oldest] = (await t.customer('capping-reached')).invoices as { Id: number }[];
    const invoice = (await t.api('GET', `/v1/Invoice/${oldest!.Id}`)).body;
    const late = (Date.parse(MID_NOVEMBER) - Date.parse(invoice.DatePaymentLimit)) / DAY_MS;
    assert.equal(Math.floor(late), 31, 'the fixture invoice is a month late');
    const portal = await home('capping-reached');
    const list = await openPage(findLink(portal, 'Invoices'));
    const document = await openPage(findLink(list, `View ${invoice.FullNumber}`));
    const charge = await openPage(findLink(list, `Pay ${invoice.FullNumber}`));
    for (const page of [portal, list, document, charge]) {
      assert.match(page.html, /<span class="badge bad">Overdue<\/span>/, page.url);
      assert.doesNotMatch(page.html, /<span class="badge[^"]*">Payment due<\/span>/, page.url);
    }
  });

  it('does not show a pending subscription’s on/off feature as included yet', async () => {
    const page = await home('pending');
    assert.match(
      page.html,
      /Single sign-on<\/th>\s*<td class="num">Starts once your subscription is complete</,
    );
    assert.doesNotMatch(page.html, /<td class="num">Included</);
    const french = await home('pending', '?lang=fr');
    assert.match(french.html, /Commence une fois l’abonnement finalisé/);
    // Running, the same feature is simply included.
    assert.match((await home('healthy')).html, /<td class="num">Included</);
  });

  it('asks for the card first, with the known contact and the optional address folded', async () => {
    const register = await openPage(findLink(await home('no-payment-method'), 'Payment method'));
    const [form] = forms(register);
    assert.ok(form);
    assert.ok(
      form.html.indexOf('name="cardNumber"') < form.html.indexOf('name="name"'),
      'the card fields come first',
    );
    assert.match(form.html, /<details class="more"\s*>\s*<summary>Contact and billing address/);
    assert.match(form.html, /Optional: printed on your invoices\./);
    // Only the card: the contact is already known, the address stays blank.
    const saved = await submit(register, GOOD_CARD);
    assert.equal(saved.status, 200, saved.html);
    assert.equal(completedWorkflow(saved), 'register');
    const customer = await t.customer('no-payment-method');
    assert.equal(customer.paymentMethod, 'valid');
    assert.equal(customer.billingAddress?.Country, undefined);
  });

  it('offers the countries by name and stores the ISO code', async () => {
    const register = await openPage(findLink(await home('healthy'), 'Payment method'));
    assert.match(register.html, /<select\s+id="f-country"\s+name="country"/);
    assert.match(register.html, /<option value="FR"\s*>\s*France\s*<\/option>/);
    const french = await openPage(findLink(await home('healthy', '?lang=fr'), 'Moyen de paiement'));
    assert.match(french.html, /<option value="DE"\s*>\s*Allemagne\s*<\/option>/);

    const saved = await submit(register, { country: 'FR' });
    assert.equal(saved.status, 200, saved.html);
    assert.equal((await t.customer('healthy')).billingAddress.Country, 'FR');
    const again = await openPage(findLink(await home('healthy'), 'Payment method'));
    assert.match(again.html, /<option value="FR"\s+selected\s*>/);
  });

  it('refuses a country outside the list, names it, and changes nothing', async () => {
    const register = await openPage(findLink(await home('healthy'), 'Payment method'));
    const before = await t.customer('healthy');
    const refused = await submit(register, { country: 'XX', name: 'Someone Else' });
    assert.equal(refused.status, 422);
    assert.match(refused.html, /Choose a country from the list\./);
    assert.match(refused.html, /<details class="more"\s+open>/, 'the fold opens on its error');
    assert.match(refused.html, /<select\s+id="f-country"[^>]*aria-invalid="true"/);
    const after = await t.customer('healthy');
    assert.deepEqual(after.billingAddress, before.billingAddress);
    assert.equal(after.customer.Name, before.customer.Name);
  });
});

describe('hosted pages: the font and title they hand to the embedding page', () => {
  const t = useTestSandbox();

  const portalHome = async () =>
    link(
      (await t.api('GET', '/v1/Subscription?ReferenceCustomer=healthy')).body,
      'hosted-related-subscription',
    ).href ?? '';

  it('takes the embedding page’s font family, rebuilt from its names, and keeps it on links', async () => {
    const font = `-apple-system, "Segoe UI", 'Noto Sans', Helvetica Neue, sans-serif`;
    const page = await openPage(`${await portalHome()}?font=${encodeURIComponent(font)}`);
    assert.match(
      page.html,
      /:root\[lang\] \{ font-family: -apple-system, "Segoe UI", "Noto Sans", Helvetica Neue, sans-serif; \}/,
    );
    const next = new URL(findLink(page, 'Change plan'));
    assert.equal(
      next.searchParams.get('font'),
      '-apple-system, "Segoe UI", "Noto Sans", Helvetica Neue, sans-serif',
    );
  });

  it('drops a font value that is not a list of names', async () => {
    for (const font of [
      'x; } body { color: red',
      '"unclosed, serif',
      'url(evil)',
      'a'.repeat(400),
    ]) {
      const page = await openPage(`${await portalHome()}?font=${encodeURIComponent(font)}`);
      assert.equal(page.status, 200);
      assert.doesNotMatch(page.html, /font-family: [^;]*(red|evil|unclosed)/, font);
      assert.doesNotMatch(page.html, /:root\[lang\] \{ font-family/, font);
      assert.equal(new URL(findLink(page, 'Change plan')).searchParams.get('font'), null);
    }
  });

  it('names its task on the body, for the portal script to title the frame and the dialog', async () => {
    const page = await openPage(await portalHome());
    assert.match(page.html, /<body data-title="Your subscription">/);
    assert.match(page.html, /type: 'page', title:/);
  });
});
