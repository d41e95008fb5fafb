import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import type { BillingPlanChangeEvent } from '../../src/client/events.js';
import { configureBilling } from '../../src/client/config.js';
import { loadLanguage } from '../../src/client/i18n.js';
import { getUsageStore } from '../../src/client/usage-store.js';
import type { PlanQuoteResponse } from '../../src/contract/proxy-api.js';
import { createPendingPlanChange } from '../../src/elements/plan-picker/pending-plan-change.js';
import type { PlanPicker } from '../../src/elements/plan-picker/plan-picker.js';
import '../../src/elements/plan-picker/define.js';
import {
  addFault,
  animationsDone,
  closePortalDialogs,
  daysLeftInPeriod,
  dialogOf,
  focusedPart,
  freshStart,
  openedPortalPath,
  part,
  partText,
  requestsTo,
  sandbox,
  serviceApi,
  streamOpen,
  waitFor,
  waitForDialog,
  waitForFocus,
  waitForText,
} from './buy-feature-helpers.js';

// <plan-picker> against the real proxy over the real sandbox: the grid, the quote before any
// change, the confirmation, exactly once, a changed price, a downgrade's date, and every state.

const APPLY_ROUTE = 'POST /v1/Subscription/{id}/Upgrade';

const pendingPlanKey = () =>
  Object.keys(sessionStorage).find((key) => key.includes('pending-plan'));

async function picker(template = html`<plan-picker></plan-picker>`): Promise<PlanPicker> {
  const element = await fixture<PlanPicker>(template);
  await waitUntil(
    () => part(element, 'offer') !== null || part(element, 'error') !== null,
    'plans shown',
    {
      timeout: 8000,
    },
  );
  return element;
}

/** Waits until the cards are priced at the customer's use (the usages are read after the plans). */
async function pricedAtUse(element: PlanPicker): Promise<void> {
  await waitUntil(() => getUsageStore('/billing').state.status === 'ready', 'usages read', {
    timeout: 8000,
  });
  await element.updateComplete;
}

function card(element: Element, offer: string): HTMLElement {
  return element.shadowRoot!.querySelector(`[data-offer-card="${offer}"]`)!;
}

/** The text of a part inside a card (cards are in the element's shadow root). */
function cardText(cardElement: Element, name: string): string {
  return (
    cardElement.querySelector(`[part~="${name}"]`)?.textContent?.replace(/\s+/g, ' ').trim() ?? ''
  );
}

/** The plan change's consequences in its dialog, one sentence per item. */
function consequences(element: PlanPicker): string[] {
  return [...dialogOf(element).querySelectorAll('.summary li')].map(
    (item) => item.textContent?.replace(/\s+/g, ' ').trim() ?? '',
  );
}

function chooseButton(element: Element, offer: string): HTMLButtonElement {
  return element.shadowRoot!.querySelector(`[data-offer="${offer}"]`)!;
}

/** Waits until the focus is on the title of the card of `title` (in the picker's shadow root). */
async function waitForFocusedTitle(element: PlanPicker, title: string): Promise<void> {
  const focused = () => {
    const active = element.shadowRoot!.activeElement;
    return active?.matches('[part~="title"]') ? active.textContent!.trim() : active?.outerHTML;
  };
  await waitUntil(
    () => focused() === title,
    `the focus on ${title}'s title (it is on ${focused()})`,
    {
      timeout: 3000,
    },
  );
}

async function quoteOf(offer: string): Promise<PlanQuoteResponse> {
  const response = await fetch('/billing/plan/quote', {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ offer }),
  });
  return (await response.json()) as PlanQuoteResponse;
}

async function offerOf(customer: string) {
  return serviceApi<{ ReferenceOffer: string; ReferenceOfferAfterTerm?: string }>(
    `Subscription?ReferenceCustomer=${customer}`,
  );
}

async function openChoice(element: PlanPicker, offer: string): Promise<void> {
  chooseButton(element, offer).click();
  await waitForDialog(element);
  await animationsDone(element);
}

describe('<plan-picker> grid', () => {
  afterEach(closePortalDialogs);

  it('shows a skeleton of cards while loading, then each offer with its price per period', async () => {
    await freshStart('healthy');
    await addFault({ route: 'GET /v1/Offers', mode: 'delay', delayMs: 600 });
    const element = await fixture<PlanPicker>(html`<plan-picker></plan-picker>`);
    expect(part(element, 'skeleton')).to.not.equal(null);
    expect(element.shadowRoot!.querySelectorAll('.loading .offer').length).to.equal(3);
    await expect(element).to.be.accessible();
    await waitUntil(() => part(element, 'offer') !== null, 'offers', { timeout: 8000 });
    const titles = [...element.shadowRoot!.querySelectorAll('[part~="title"]')].map((node) =>
      node.textContent?.trim(),
    );
    // The grid's three plans, then the one the business prepared for Hannah.
    expect(titles).to.deep.equal(['Starter', 'Pro', 'Business', 'Enterprise']);
    await pricedAtUse(element);
    // Hannah's 4 projects are one above Starter's 3: at her use, $19 + $5.
    expect(cardText(card(element, 'starter'), 'price')).to.equal('$24.00 / month');
    expect(cardText(card(element, 'business'), 'price')).to.equal('$199.00 / month');
    await expect(element).to.be.accessible();
  });

  it('keeps its cards when moved in the page, while it reads them again', async () => {
    await freshStart('healthy');
    const element = await picker();
    await addFault({ route: 'GET /v1/Offers', mode: 'delay', delayMs: 600 });
    const before = await requestsTo('GET /v1/Offers');
    const parent = element.parentElement!;
    element.remove();
    parent.append(element);
    await element.updateComplete;
    expect(part(element, 'skeleton')).to.equal(null);
    expect(part(element, 'offer')).to.not.equal(null);
    await waitUntil(async () => (await requestsTo('GET /v1/Offers')) > before, 'read again', {
      timeout: 8000,
    });
  });

  it('marks the current plan without an action and lists the features that differ', async () => {
    await freshStart('healthy');
    const element = await picker();
    const pro = card(element, 'pro');
    expect(pro.hasAttribute('data-current')).to.equal(true);
    expect(cardText(pro, 'current')).to.equal('Current plan');
    expect(pro.querySelector('button')).to.equal(null);
    // Neutral: whether a move raises or lowers this customer's price is the quote's to say.
    expect(chooseButton(element, 'business').textContent!.trim()).to.equal('Switch to Business');
    expect(chooseButton(element, 'starter').textContent!.trim()).to.equal('Switch to Starter');
    const starterFeatures = cardText(card(element, 'starter'), 'features');
    expect(starterFeatures).to.contain('Single sign-on: Not included');
    expect(cardText(pro, 'features')).to.contain('Single sign-on: Included');
    expect(cardText(card(element, 'business'), 'features')).to.contain('Seats: Unlimited');
    // The same in every offer (not shown): nothing to compare.
    expect(cardText(pro, 'features')).to.not.contain('API calls: 10,000x');
  });

  it('shows on each card what the customer pays after the discount, the list price beneath', async () => {
    await freshStart('discounted');
    const element = await picker();
    await pricedAtUse(element);
    // Dario's 4 projects are one above Starter's 3: at his use Starter is $19 + $5, 20% off.
    expect(cardText(card(element, 'starter'), 'price')).to.equal('$19.20 / month');
    // The sum in the order it is counted: list price, extras, discount, the price paid.
    expect(cardText(card(element, 'starter'), 'at-use')).to.equal(
      'At your current use: the $19.00 / month list price plus Projects: 1 extra, $5.00 / month, less $4.80 / month for your discount (20% off everything), so $19.20 / month.',
    );
    // The discount is said once, in that sum.
    expect(card(element, 'starter').querySelector('[part~="discount"]')).to.equal(null);
    // The add-on's price too is what he pays: $9.00, 20% off.
    expect(cardText(card(element, 'starter'), 'features')).to.contain(
      'Priority support: Add-on, $7.20 / month',
    );
    expect(cardText(card(element, 'pro'), 'features')).to.contain(
      'Priority support: Add-on, $7.20 / month',
    );
    // 20% off every price: the price paid is the card's price; the list price is secondary.
    for (const [offer, paid, list] of [
      ['pro', '$39.20 / month', '$49.00 / month'],
      ['business', '$159.20 / month', '$199.00 / month'],
    ] as const) {
      expect(cardText(card(element, offer), 'price')).to.equal(paid);
      expect(cardText(card(element, offer), 'discount')).to.equal(
        `List price ${list}, before your discount: 20% off everything.`,
      );
    }
    await expect(element).to.be.accessible();
    // The dialog says the whole sum beside the discounted price it asks to confirm, as the
    // card does: list prices beside a discounted total would not add up.
    await openChoice(element, 'starter');
    expect(partText(element, 'next-term-note')).to.equal(
      'The $19.00 / month list price of Starter plus Projects: 1 extra, $5.00 / month, less $4.80 / month for your discount (20% off everything), so $19.20 / month.',
    );
    await freshStart('healthy');
    const plain = await picker();
    expect(plain.shadowRoot!.querySelector('[part~="discount"]')).to.equal(null);
  });

  it('names the discount in the page language too', async () => {
    await freshStart('discounted');
    const element = await picker(html`<plan-picker lang="fr"></plan-picker>`);
    await loadLanguage('fr');
    await element.updateComplete;
    await pricedAtUse(element);
    expect(cardText(card(element, 'pro'), 'price')).to.equal('39,20 $US / mois');
    expect(cardText(card(element, 'pro'), 'features')).to.contain(
      'Support prioritaire : en option, 7,20 $US / mois',
    );
    expect(cardText(card(element, 'starter'), 'at-use')).to.equal(
      'À votre usage actuel : le prix catalogue de 19,00 $US / mois plus Projets : 1 en supplément, 5,00 $US / mois, moins 4,80 $US / mois pour votre remise (20 % de remise sur tout), soit 19,20 $US / mois.',
    );
    expect(cardText(card(element, 'pro'), 'discount')).to.equal(
      'Prix catalogue 49,00 $US / mois, avant votre remise : 20 % de remise sur tout.',
    );
  });

  it('speaks the page language, prices included', async () => {
    await freshStart('healthy');
    const element = await picker(html`<plan-picker lang="fr"></plan-picker>`);
    // Its French texts arrive on demand (English meanwhile), then it renders again.
    await loadLanguage('fr');
    await element.updateComplete;
    expect(cardText(card(element, 'pro'), 'price')).to.equal('49,00 $US / mois');
    expect(cardText(card(element, 'pro'), 'current')).to.equal('Offre actuelle');
    // The service's texts too: asked in the page's language.
    expect(cardText(card(element, 'pro'), 'description')).to.equal(
      'Pour les équipes en croissance',
    );
    expect(cardText(card(element, 'business'), 'features')).to.contain('Sièges');
    // "illimité" would agree with a masculine singular name only: the value agrees with any.
    expect(cardText(card(element, 'business'), 'features')).to.contain('Sièges : sans limite');
    expect(cardText(card(element, 'business'), 'features')).to.not.contain('illimité');
  });

  it('says a downgrade’s losses in French, names quoted, and what becomes of the seats', async () => {
    await freshStart('healthy');
    const expected = await quoteOf('starter');
    const element = await picker(html`<plan-picker lang="fr"></plan-picker>`);
    await loadLanguage('fr');
    await element.updateComplete;
    await pricedAtUse(element);
    await openChoice(element, 'starter');
    expect(expected.TypeChange).to.equal('Downgrade');
    const [loses, drops] = consequences(element);
    // The names follow a verb, quoted: no capital letter mid-sentence reads as a typo.
    expect(loses).to.equal('Avec Starter, vous perdez « Sièges » et « Authentification unique ».');
    // The seats' line says what becomes of them on the date: gone, for the people using them.
    expect(drops).to.match(
      / : Starter n’en inclut pas\. Vos 3 restent jusqu’au 1(er)? \p{L}+ \d{4} ; ensuite votre offre n’en a plus, et les personnes qui les utilisent les perdent\.$/u,
    );
  });

  it('asks for the offers again when the page changes its language', async () => {
    await freshStart('healthy');
    const element = await picker(html`<plan-picker lang="en"></plan-picker>`);
    expect(cardText(card(element, 'pro'), 'description')).to.equal('For growing teams');
    element.setAttribute('lang', 'fr');
    await waitUntil(
      () => cardText(card(element, 'pro'), 'description') === 'Pour les équipes en croissance',
      'the French description',
      { timeout: 8000 },
    );
    expect(cardText(card(element, 'business'), 'features')).to.contain('Sièges');
  });

  it('says once when the offers cannot be loaded, and loads them on retry', async () => {
    await freshStart('healthy');
    await addFault({ route: 'GET /v1/Offers', mode: 'status-500', times: 3 });
    const element = await picker();
    expect(element.shadowRoot!.querySelectorAll('[part~="error"]').length).to.equal(1);
    await expect(element).to.be.accessible();
    part<HTMLButtonElement>(element, 'retry')!.click();
    await waitUntil(() => part(element, 'offer') !== null, 'offers after retry', { timeout: 8000 });
  });
});

describe('<plan-picker> changing plan', () => {
  afterEach(closePortalDialogs);

  it('prices the move first and asks, changing nothing until confirmed', async () => {
    await freshStart('healthy');
    const expected = await quoteOf('business');
    const element = await picker();
    await openChoice(element, 'business');
    expect(partText(element, 'amount')).to.equal(expected.PricingLocalized);
    expect(partText(element, 'next-term')).to.contain(
      expected.NextTerm.PricingLocalized.replace(/\s+/g, ' '),
    );
    expect(part(element, 'effective')).to.equal(null);
    // Business's price is the card's: nothing more to explain.
    expect(part(element, 'next-term-note')).to.equal(null);
    expect(focusedPart(element)).to.equal('button cancel');
    await expect(element).to.be.accessible();
    expect(await requestsTo(APPLY_ROUTE)).to.equal(0);
    part<HTMLButtonElement>(element, 'cancel')!.click();
    await waitForDialog(element, false);
    await waitForFocus(element, 'button choose');
    expect((await offerOf('healthy')).ReferenceOffer).to.equal('pro');
    expect(await requestsTo(APPLY_ROUTE)).to.equal(0);
  });

  it('shows both sides of an upgrade: the new plan and the credit for the current one', async () => {
    await freshStart('healthy');
    const expected = await quoteOf('business');
    const element = await picker();
    await openChoice(element, 'business');
    const lines = [...part(element, 'details')!.querySelectorAll('li')].map((line) =>
      [...line.querySelectorAll('span')].map((cell) => cell.textContent!.trim()),
    );
    // "Business $99.50" alone was net of a credit that had no line. Each says its dates.
    expect(lines.map(([label]) => label!.replace(/today to .+$/, 'today to DATE'))).to.deep.equal([
      'Business, today to DATE',
      'Credit for unused Pro, today to DATE',
    ]);
    const cents = (text: string) =>
      Math.round(Number(text.replace('\u2212', '-').replace(/[^\d.-]/g, '')) * 100);
    expect(lines[1]![1]!.startsWith('\u2212')).to.equal(true);
    // The lines add up to the amount shown. The element's quote and the one asked above are two
    // quotes a moment apart, each prorated to the second: they may differ by a cent.
    const sum = lines.reduce((total, [, amount]) => total + cents(amount!), 0);
    expect(sum).to.equal(cents(partText(element, 'amount')));
    expect(Math.abs(sum - expected.AmountTotal)).to.be.at.most(1);
    await expect(element).to.be.accessible();
    part<HTMLButtonElement>(element, 'cancel')!.click();
    await waitForDialog(element, false);
  });

  it("shows the service's lines of an upgrade in the page's language", async () => {
    await freshStart('healthy');
    // 4.3 days left in the period: a day count with a decimal, written "4,3" in French.
    await daysLeftInPeriod('healthy', 4.3);
    const element = await picker(html`<plan-picker lang="fr"></plan-picker>`);
    await loadLanguage('fr');
    await openChoice(element, 'business');
    const labels = [...part(element, 'details')!.querySelectorAll('li')].map((line) =>
      line.querySelector('span')!.textContent!.trim(),
    );
    expect(labels).to.have.length(2);
    expect(labels[0]).to.match(/^Business, d’aujourd’hui au /);
    expect(labels[1]).to.match(/^Crédit Pro non utilisé, d’aujourd’hui au /);
    expect(partText(element, 'quote')).to.contain('À payer maintenant');
    expect(partText(element, 'next-term')).to.contain('Nouveau prix récurrent');

    // A day later the price changed: the change answers with a new quote, in French too.
    await sandbox('clock', { advance: { days: 1 } });
    part<HTMLButtonElement>(element, 'confirm')!.click();
    await waitUntil(() => part(element, 'price-changed') !== null, 'price changed notice', {
      timeout: 8000,
    });
    const firstLabel = part(element, 'details')!.querySelector('li span')!.textContent!.trim();
    expect(firstLabel).to.match(/^Business, d’aujourd’hui au /);
    expect(await requestsTo(APPLY_ROUTE)).to.equal(0);
    part<HTMLButtonElement>(element, 'cancel')!.click();
    await waitForDialog(element, false);
  });

  it('asks even for a move that costs nothing now, and shows when a downgrade takes effect', async () => {
    await freshStart('healthy');
    const expected = await quoteOf('starter');
    expect(expected.AmountTotalDue).to.equal(0);
    const element = await picker();
    await pricedAtUse(element);
    await openChoice(element, 'starter');
    const date = new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' }).format(
      new Date(expected.DateEffective),
    );
    // The quote says it lowers the price and waits: now, and only now, it is a downgrade.
    expect(expected).to.include({ TypeChange: 'Downgrade', IsImmediate: false });
    expect(partText(element, 'dialog-title')).to.equal('Downgrade to Starter?');
    // Nothing is due now: the headline is the price from the date, and "Due now $0.00" under it.
    expect(partText(element, 'quote').startsWith(`New recurring price from ${date}`)).to.equal(
      true,
    );
    expect(partText(element, 'amount')).to.equal(
      expected.NextTerm.PricingLocalized.replace(/\s+/g, ' '),
    );
    expect(partText(element, 'next-term')).to.equal(
      `Due now ${expected.PricingLocalized.replace(/\s+/g, ' ')}`,
    );
    expect(part(element, 'effective')).to.equal(null);
    // Hannah's 4 projects are one above Starter's 3: the $24.00 / month is more than Starter's
    // $19, and the dialog names the extra (the quote has no line for it). Pro's seats and single
    // sign-on are not in Starter, and her 3 seats leave her plan on the change's date (the
    // service keeps only the new plan's features): said before she confirms.
    expect(expected.NextTerm.AmountTotal).to.equal(2400);
    expect(partText(element, 'next-term-note')).to.equal(
      'More than the $19.00 / month of Starter: it includes Projects: 1 extra, $5.00 / month.',
    );
    expect(consequences(element)).to.deep.equal([
      'On Starter you no longer have “Seats” and “Single sign-on”.',
      `Seats: Starter does not include them. You keep your 3 until ${date}; from then your plan has none, and the people using them lose them.`,
      'Projects: your 4 stay; Starter includes 3, the rest is billed as extra.',
      // Her API calls are counted each period; Starter includes fewer and caps them.
      'API calls: Starter includes 1,000 and stops at 5,000; you have used 1,200 this period.',
    ]);
    // Features taken away: worded and styled as a removal, not as a purchase.
    expect(part(element, 'confirm')!.getAttribute('part')).to.equal('button confirm destructive');
    const changed = oneEvent(element, 'billing-plan-change') as Promise<BillingPlanChangeEvent>;
    part<HTMLButtonElement>(element, 'confirm')!.click();
    const { detail } = await changed;
    expect(detail.offerAfterTerm).to.equal('starter');
    expect(detail.currentOffer).to.equal('pro');
    await waitForText(element, 'success', 'Done. Your change to Starter is scheduled.');
    expect((await offerOf('healthy')).ReferenceOfferAfterTerm).to.equal('starter');
  });

  it('says before a downgrade that the use so far is past the smaller plan’s cap', async () => {
    await freshStart('healthy');
    // Hannah's back end reports 5,000 API calls more: 6,200 this period, past Starter's cap.
    await serviceApi('Usage', {
      ReferenceCustomer: 'healthy',
      ReferenceFeature: 'api-calls',
      Increment: 5_000,
    });
    const element = await picker();
    await pricedAtUse(element);
    await openChoice(element, 'starter');
    expect(consequences(element)).to.include(
      'API calls: Starter stops at 5,000 and you have used 6,200 this period: further use is refused on it.',
    );
    part<HTMLButtonElement>(element, 'cancel')!.click();
    await waitForDialog(element, false);
  });

  it('never calls a cheaper card a downgrade when its price for this customer is higher', async () => {
    // Uma: Business, 42 seats and 17 projects. Pro's list price is $49, but with her extras it
    // is $454 a month, charged now: a price rise, not a downgrade that waits.
    await freshStart('unlimited');
    const expected = await quoteOf('pro');
    expect(expected).to.include({ TypeChange: 'Upgrade', IsImmediate: true });
    expect(expected.AmountTotalDue).to.be.greaterThan(0);
    const element = await picker();
    await pricedAtUse(element);
    // The card says what Pro costs her, never its list price alone.
    expect(expected.NextTerm.AmountTotal).to.equal(45_400);
    expect(cardText(card(element, 'pro'), 'price')).to.equal('$454.00 / month');
    expect(cardText(card(element, 'pro'), 'at-use')).to.equal(
      'At your current use: the $49.00 / month list price plus Seats: 37 extra, $370.00 / month and Projects: 7 extra, $35.00 / month.',
    );
    expect(cardText(card(element, 'business'), 'price')).to.equal('$199.00 / month');
    expect(card(element, 'business').querySelector('[part~="at-use"]')).to.equal(null);
    expect(chooseButton(element, 'pro').textContent!.trim()).to.equal('Switch to Pro');
    expect(chooseButton(element, 'starter').textContent!.trim()).to.equal('Switch to Starter');
    await openChoice(element, 'pro');
    expect(partText(element, 'dialog-title')).to.equal('Switch to Pro?');
    expect(partText(element, 'amount')).to.equal(expected.PricingLocalized);
    // The rise is compared with what she pays now.
    expect(partText(element, 'next-term')).to.contain(
      `${expected.NextTerm.PricingLocalized.replace(/\s+/g, ' ')} instead of $199.00 / month`,
    );
    expect(partText(element, 'next-term-note')).to.equal(
      'More than the $49.00 / month of Pro: it includes Seats: 37 extra, $370.00 / month and Projects: 7 extra, $35.00 / month.',
    );
    expect(part(element, 'effective')).to.equal(null);
    // Not a downgrade: nothing listed as taken away; what happens to her use and to the
    // priority support Business includes and Pro sells apart (the service does not carry it
    // over: it was never bought).
    expect(consequences(element)).to.deep.equal([
      'Seats: your 42 stay; Pro includes 5, the rest is billed as extra.',
      'Projects: your 17 stay; Pro includes 10, the rest is billed as extra.',
      'Priority support: Pro sells it as an add-on, $9.00 / month; add it after the change to keep it.',
    ]);
    // Nothing the plan has is taken away: the confirm is not styled as a removal.
    expect(part(element, 'confirm')!.getAttribute('part')).to.equal('button confirm');
    part<HTMLButtonElement>(element, 'cancel')!.click();
    await waitForDialog(element, false);
  });

  it('says a scheduled downgrade instead of offering it again, and keeps the plan', async () => {
    await freshStart('healthy');
    const expected = await quoteOf('starter');
    const date = new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' }).format(
      new Date(expected.DateEffective),
    );
    const element = await picker();
    await openChoice(element, 'starter');
    part<HTMLButtonElement>(element, 'confirm')!.click();
    // Said once with its date, by the notice: the success line does not repeat it.
    await waitForText(element, 'success', 'Done. Your change to Starter is scheduled.');
    // The downgrade waits for the end of the period: the picker says so, and no longer offers it.
    await waitForText(element, 'scheduled', `Your plan changes to Starter on ${date}.`);
    expect(cardText(card(element, 'starter'), 'starts')).to.equal(`Starts on ${date}`);
    expect(card(element, 'starter').querySelector('button') === null).to.equal(true);
    expect(cardText(card(element, 'pro'), 'current')).to.equal('Current plan');
    // The focus was on Starter's button, which is gone: it is on Starter's title, not lost.
    await waitForFocusedTitle(element, 'Starter');
    await expect(element).to.be.accessible();

    // "Keep Pro" cancels it, after its own confirmation: nothing now, Pro's price goes on.
    part<HTMLButtonElement>(element, 'keep')!.focus();
    part<HTMLButtonElement>(element, 'keep')!.click();
    await waitForDialog(element);
    await animationsDone(element);
    expect(partText(element, 'dialog-title')).to.equal('Keep Pro?');
    const keep = await quoteOf('pro');
    expect(partText(element, 'amount')).to.equal(keep.PricingLocalized);
    expect(partText(element, 'next-term')).to.equal(
      `Your recurring price stays ${keep.NextTerm.PricingLocalized.replace(/\s+/g, ' ')}`,
    );
    part<HTMLButtonElement>(element, 'confirm')!.click();
    await waitForText(element, 'success', 'Done. You stay on Pro.');
    await waitUntil(() => part(element, 'scheduled') === null, 'the notice gone', {
      timeout: 8000,
    });
    expect((await offerOf('healthy')).ReferenceOfferAfterTerm).to.equal(undefined);
    expect(chooseButton(element, 'starter').textContent!.trim()).to.equal('Switch to Starter');
    // The notice and its Keep Pro button are gone: the focus is on Pro's title.
    await waitForFocusedTitle(element, 'Pro');
  });

  it('says before another change that it replaces the one scheduled', async () => {
    await freshStart('healthy');
    // A downgrade to Starter confirmed earlier, waiting for the end of the period.
    const { Id } = await serviceApi<{ Id: number }>('Subscription?ReferenceCustomer=healthy');
    await serviceApi(`Subscription/${Id}/Upgrade?ReferenceOffer=starter`, {});
    expect((await offerOf('healthy')).ReferenceOfferAfterTerm).to.equal('starter');
    const applied = await requestsTo(APPLY_ROUTE);
    const element = await picker();
    await openChoice(element, 'business');
    const { DateOfferChange } = await serviceApi<{ DateOfferChange: string }>(`Subscription/${Id}`);
    const date = new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' }).format(
      new Date(DateOfferChange),
    );
    expect(dialogOf(element).querySelector('.summary')?.textContent?.trim()).to.equal(
      `This replaces your change to Starter on ${date}.`,
    );
    part<HTMLButtonElement>(element, 'cancel')!.click();
    await waitForDialog(element, false);
    expect(await requestsTo(APPLY_ROUTE)).to.equal(applied);
  });

  it('changes the plan exactly once under a double click, then refreshes everything', async () => {
    await freshStart('healthy');
    const store = getUsageStore('/billing');
    await store.load();
    expect(store.get('seats')?.QuantityIncluded).to.equal(5);
    const element = await picker();
    await openChoice(element, 'business');
    await addFault({ route: APPLY_ROUTE, mode: 'delay', delayMs: 400 });
    const changed = oneEvent(element, 'billing-plan-change') as Promise<BillingPlanChangeEvent>;
    const confirm = part<HTMLButtonElement>(element, 'confirm')!;
    confirm.click();
    confirm.click();
    // A third click while the change is on its way to the service.
    await waitFor(
      async () => (await requestsTo(APPLY_ROUTE)) > 0,
      'the change to reach the service',
    );
    confirm.click();
    const { detail } = await changed;
    expect(detail).to.include({ offer: 'business', currentOffer: 'business', replayed: false });
    expect(await requestsTo(APPLY_ROUTE)).to.equal(1);
    await waitForText(element, 'success', 'You are now on Business');
    await waitUntil(
      () => card(element, 'business')?.hasAttribute('data-current'),
      'business current',
      {
        timeout: 8000,
      },
    );
    await waitUntil(() => store.get('seats')?.QuantityIncluded === -1, 'usages refreshed', {
      timeout: 8000,
    });
    expect(sessionStorage.length).to.equal(
      Object.keys(sessionStorage).filter((key) => !key.includes('pending-plan')).length,
    );
    await expect(element).to.be.accessible();
  });

  it('shows the new price when it changed, and asks again', async () => {
    await freshStart('healthy');
    const element = await picker();
    await openChoice(element, 'business');
    const shown = partText(element, 'amount');
    // Time passes on the service's clock: the prorated amount of the move changes.
    await sandbox('clock', { advance: { days: 2 } });
    part<HTMLButtonElement>(element, 'confirm')!.click();
    await waitUntil(() => part(element, 'price-changed') !== null, 'price changed notice', {
      timeout: 8000,
    });
    expect(dialogOf(element).open).to.equal(true);
    expect(partText(element, 'amount')).to.not.equal(shown);
    expect(await requestsTo(APPLY_ROUTE)).to.equal(0);
    await expect(element).to.be.accessible();
    const changed = oneEvent(element, 'billing-plan-change');
    part<HTMLButtonElement>(element, 'confirm')!.click();
    await changed;
    expect(await requestsTo(APPLY_ROUTE)).to.equal(1);
  });
});

describe('<plan-picker> states', () => {
  afterEach(closePortalDialogs);

  it('without a subscription, subscribes to the chosen offer in the portal', async () => {
    await freshStart('no-subscription');
    const element = await picker();
    expect(partText(element, 'notice')).to.contain('No plan yet. Choose one to subscribe.');
    const button = chooseButton(element, 'pro');
    expect(button.textContent).to.contain('Subscribe to Pro');
    await expect(element).to.be.accessible();
    const remedy = oneEvent(element, 'billing-remedy');
    button.click();
    expect((await remedy).detail.page).to.equal('subscribe');
    expect(await openedPortalPath()).to.contain('/subscribe');
    expect(await requestsTo('POST /v1/Quoting/Subscription/{id}/Upgrade')).to.equal(0);
  });

  /** Starts a subscription to `offer` for `customer` as a checkout elsewhere would (another tab). */
  async function subscribeElsewhere(customer: string, offer: string): Promise<void> {
    const created = await serviceApi<{ Id: number }>('Subscription', {
      ReferenceCustomer: customer,
      ReferenceOffer: offer,
    });
    await sandbox(`subscriptions/${created.Id}/complete`, {});
  }

  /** The offers the picker sells as subscriptions ("Subscribe to …"), by reference. */
  const subscribeButtons = (element: PlanPicker) =>
    [...element.shadowRoot!.querySelectorAll<HTMLElement>('[part~="choose"]')]
      .filter((button) => /Subscribe to/.test(button.textContent ?? ''))
      .map((button) => button.dataset.offer);

  it('follows a subscription started elsewhere: its plans become changes, never a second subscription', async () => {
    await freshStart('no-subscription');
    const element = await picker();
    expect(subscribeButtons(element)).to.deep.equal(['starter', 'pro', 'business']);
    await streamOpen();
    await subscribeElsewhere('no-subscription', 'pro');
    // The sandbox notifies the proxy, whose event stream tells the page: no reload, no click.
    await waitUntil(() => card(element, 'pro')?.hasAttribute('data-current'), 'Pro current', {
      timeout: 8000,
    });
    expect(subscribeButtons(element)).to.deep.equal([]);
    expect(part(element, 'notice')).to.equal(null);
    expect(chooseButton(element, 'business').textContent).to.contain('Switch to Business');
  });

  it('a Subscribe shown before a subscription started elsewhere is refused, and the picker catches up', async () => {
    await freshStart('no-subscription');
    configureBilling({ live: false });
    const element = await picker();
    await subscribeElsewhere('no-subscription', 'pro');
    // Without live updates the picker still offers to subscribe: the proxy reads the
    // subscription again before opening the subscribe page, and refuses.
    const failure = oneEvent(element, 'billing-error');
    chooseButton(element, 'business').click();
    expect((await failure).detail.error.code).to.equal('already-subscribed');
    await waitUntil(() => card(element, 'pro')?.hasAttribute('data-current'), 'Pro current', {
      timeout: 8000,
    });
    expect(subscribeButtons(element)).to.deep.equal([]);
    const modal = document.querySelector('body > billing-portal')!;
    await waitUntil(() => /already have a subscription/.test(modal.shadowRoot!.textContent ?? ''));
    const state = await sandbox<{ subscriptions: { ReferenceOffer: string }[] }>(
      'customers/no-subscription',
    );
    expect(state.subscriptions.map((subscription) => subscription.ReferenceOffer)).to.deep.equal([
      'pro',
    ]);
  });

  it('with a pending subscription, offers to complete it and changes nothing', async () => {
    await freshStart('pending');
    const element = await picker();
    expect(partText(element, 'notice')).to.contain('waiting to be completed');
    // Its plan is not the customer's yet: its card says so, never "Current plan".
    expect(partText(element, 'current')).to.equal('Waiting to be completed');
    const button = chooseButton(element, 'business');
    expect(button.getAttribute('aria-disabled')).to.equal('true');
    button.click();
    // A choice it took would show at once: the button busy with its quote, or the dialog.
    await element.updateComplete;
    expect(button.getAttribute('aria-busy')).to.equal('false');
    expect(dialogOf(element).open).to.equal(false);
    await expect(element).to.be.accessible();
    const remedy = oneEvent(element, 'billing-remedy');
    part<HTMLButtonElement>(element, 'remedy')!.click();
    expect((await remedy).detail.page).to.equal('subscribe');
    expect(dialogOf(element).open).to.equal(false);
  });

  it('with a subscription suspended for its payment method, asks for a valid one first', async () => {
    await freshStart('suspended');
    const element = await picker();
    expect(partText(element, 'notice')).to.contain(
      'Your subscription is suspended: your payment method no longer works. Update it, then restart your subscription before changing plan.',
    );
    expect(partText(element, 'remedy')).to.equal('Update payment method');
    expect(chooseButton(element, 'business').getAttribute('aria-disabled')).to.equal('true');
    await expect(element).to.be.accessible();
    const remedy = oneEvent(element, 'billing-remedy');
    part<HTMLButtonElement>(element, 'remedy')!.click();
    expect((await remedy).detail.page).to.equal('register');
    expect(await openedPortalPath()).to.contain('/register');
  });

  it('with overdue invoices blocking a restart, asks to pay them first', async () => {
    await freshStart('capping-reached');
    const element = await picker();
    expect(partText(element, 'notice')).to.contain('invoices are overdue. Pay them, then restart');
    expect(partText(element, 'remedy')).to.equal('Pay overdue invoices');
    expect(chooseButton(element, 'business').getAttribute('aria-disabled')).to.equal('true');
    await expect(element).to.be.accessible();
    const remedy = oneEvent(element, 'billing-remedy');
    part<HTMLButtonElement>(element, 'remedy')!.click();
    expect((await remedy).detail.page).to.equal('pay-invoice');
    expect(await openedPortalPath()).to.contain('/charge');
  });

  it('shows the register remedy when a move needs a payment method', async () => {
    await freshStart('no-payment-method');
    const element = await picker();
    chooseButton(element, 'business').click();
    await waitForText(element, 'error', 'payment');
    expect(dialogOf(element).open).to.equal(false);
    expect(partText(element, 'remedy')).to.not.equal('');
    await expect(element).to.be.accessible();
  });

  it('shows the plan the business prepared for the customer, taken in the service’s workflow', async () => {
    await freshStart('healthy');
    const element = await picker();
    // A custom Enterprise subscription, outside the visible grid, at its own price.
    const enterprise = card(element, 'enterprise');
    const id = Number(enterprise.dataset.prepared);
    expect(id).to.be.greaterThan(0);
    expect(cardText(enterprise, 'description')).to.equal('A custom offer prepared for you');
    expect(cardText(enterprise, 'price')).to.equal('$499.00 / month');
    expect(cardText(enterprise, 'features')).to.contain('Single sign-on: Included');
    const button = chooseButton(element, 'enterprise');
    expect(button.textContent!.trim()).to.equal('Switch to Enterprise');
    await expect(element).to.be.accessible();
    // Its terms and its confirmation are the service's change-plan workflow on that subscription:
    // the picker quotes nothing.
    const remedy = oneEvent(element, 'billing-remedy');
    button.click();
    expect((await remedy).detail).to.deep.equal({
      page: 'change-plan',
      offer: 'enterprise',
      subscription: id,
    });
    expect(await openedPortalPath()).to.contain(`/upgrade`);
    expect(await requestsTo('POST /v1/Quoting/Subscription/{id}/Upgrade')).to.equal(0);
  });

  it('shows no prepared plan to a customer the business prepared none for', async () => {
    await freshStart('discounted');
    const element = await picker();
    expect(element.shadowRoot!.querySelector('[data-prepared]')).to.equal(null);
  });

  it('links an offer sold on request to the contact address, never a switch', async () => {
    await freshStart('healthy');
    // The sandbox's grid has no offer on request (enterprise is outside it): the real answer
    // of GET /offers is passed through with one offer marked on request, as the service marks
    // one, so the card's rendering is what is tested here.
    const realFetch = window.fetch;
    window.fetch = async (input, init) => {
      const response = await realFetch(input, init);
      if (!String(input).endsWith('/offers')) return response;
      const body = (await response.json()) as { offers: Record<string, unknown>[] };
      const business = body.offers.find((offer) => offer.ReferenceOffer === 'business')!;
      Object.assign(business, { IsOnRequest: true, AmountRecurrence: undefined });
      return new Response(JSON.stringify(body), { status: 200, headers: response.headers });
    };
    try {
      const element = await picker(
        html`<plan-picker contact-href="mailto:sales@example.com"></plan-picker>`,
      );
      const business = card(element, 'business');
      expect(cardText(business, 'price')).to.equal('On request');
      const contact = business.querySelector<HTMLAnchorElement>('[part~="contact"]')!;
      expect(contact.href).to.equal('mailto:sales@example.com');
      expect(business.querySelector('button')).to.equal(null);
      await expect(element).to.be.accessible();
    } finally {
      window.fetch = realFetch;
    }
  });

  it('resends a change confirmed before a reload with the same key, applied once', async () => {
    await freshStart('healthy');
    const quote = await quoteOf('business');
    const first = await picker();
    await openChoice(first, 'business');
    // The page goes away while the change is on its way: its outcome is unknown to the page.
    await addFault({ route: APPLY_ROUTE, mode: 'delay', delayMs: 800 });
    part<HTMLButtonElement>(first, 'confirm')!.click();
    await waitFor(
      async () => (await requestsTo(APPLY_ROUTE)) > 0,
      'the change to reach the service',
    );
    const pendingKey = Object.keys(sessionStorage).find((key) => key.includes('pending-plan'));
    expect(pendingKey).to.not.equal(undefined);
    first.remove();
    expect(quote.AmountTotalDue).to.be.greaterThan(0);
    const second = await fixture<PlanPicker>(html`<plan-picker></plan-picker>`);
    const changed = (await oneEvent(second, 'billing-plan-change')) as BillingPlanChangeEvent;
    expect(changed.detail.offer).to.equal('business');
    expect(await requestsTo(APPLY_ROUTE)).to.equal(1);
    expect(Object.keys(sessionStorage).some((key) => key.includes('pending-plan'))).to.equal(false);
  });

  // A change is re-sent only when it names the customer signed in now (the trust rule: a change
  // confirmed by one customer is never applied in another's session).
  const unproven: [string, string | undefined][] = [
    ['names no customer', undefined],
    ['belongs to another customer', 'discounted'],
  ];
  for (const [what, customer] of unproven) {
    it(`drops a change confirmed before a reload that ${what}, never sending it`, async () => {
      await freshStart('healthy');
      const quote = await quoteOf('business');
      const request = {
        offer: 'business',
        confirmedAmountTotal: quote.AmountTotalDue,
        confirmedNextTermAmountTotal: quote.NextTerm.AmountTotal,
      };
      createPendingPlanChange('/billing', request, customer);
      const element = await picker();
      await waitUntil(() => !pendingPlanKey(), 'the pending change dropped', { timeout: 8000 });
      await element.updateComplete;
      // (A text, not the node: a failure message that prints a node can stall the page.)
      expect(partText(element, 'success')).to.equal('');
      expect(await requestsTo(APPLY_ROUTE)).to.equal(0);
      expect((await offerOf('healthy')).ReferenceOffer).to.equal('pro');
    });
  }
});
