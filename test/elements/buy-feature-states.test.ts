import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import type { BillingErrorEvent, BillingRemedyEvent } from '../../src/client/events.js';
import { loadLanguage } from '../../src/client/i18n.js';
import type { BuyFeature } from '../../src/elements/buy-feature/buy-feature.js';
import { proxyRequestCount } from '../browser/billing.js';
import {
  closePortalDialogs,
  openConfirmation,
  openedPortalPath,
  part,
  partText,
  pricedElement,
  quote,
  freshStart,
  waitForPrice,
  waitForText,
} from './buy-feature-helpers.js';

// <buy-feature>: every state it can be in, designed. The element talks to the real proxy over
// the real sandbox.

afterEach(() => closePortalDialogs());

/** Intl's currency format of hundredths, as the page's language writes it (spaces as partText's). */
const money = (lang: string, amount: number) =>
  new Intl.NumberFormat(lang, { style: 'currency', currency: 'USD' })
    .format(amount / 100)
    .replace(/\s+/g, ' ');

/** Types a value in the quantity field as a person does (an input event per change). */
async function type(element: BuyFeature, value: string): Promise<void> {
  const input = part<HTMLInputElement>(element, 'input')!;
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
  await element.updateComplete;
}

/** Collects the `console.warn` lines written while `run` runs. */
async function warnings(run: () => Promise<void>): Promise<string[]> {
  const lines: string[] = [];
  const original = console.warn;
  console.warn = (...args: unknown[]) => {
    lines.push(args.map(String).join(' '));
  };
  try {
    await run();
  } finally {
    console.warn = original;
  }
  return lines;
}

describe('<buy-feature> states', () => {
  it('a pending subscription offers to complete it, never a restart', async () => {
    await freshStart('pending');
    const errors: BillingErrorEvent[] = [];
    const listener = (event: BillingErrorEvent) => errors.push(event);
    document.addEventListener('billing-error', listener);
    const element = await fixture<BuyFeature>(html`<buy-feature feature="seats"></buy-feature>`);
    await waitForText(element, 'error', 'Complete your subscription');
    document.removeEventListener('billing-error', listener);
    expect(partText(element, 'error')).not.to.match(/suspended|restart/i);
    expect(partText(element, 'remedy')).to.equal('Complete your subscription');
    expect(errors.map((event) => event.detail.error.code)).to.deep.equal(['subscription-pending']);
    expect(errors[0]!.detail.remedy).to.equal('subscribe');
    // A step still ahead, not a failure: no alarm tint.
    const box = getComputedStyle(part(element, 'error')!);
    expect(box.backgroundColor).to.be.oneOf(['rgba(0, 0, 0, 0)', 'transparent']);
    expect(box.borderTopStyle).to.equal('dashed');
    await expect(element).to.be.accessible();

    const remedy = oneEvent(element, 'billing-remedy');
    part<HTMLButtonElement>(element, 'remedy')!.click();
    expect(((await remedy) as BillingRemedyEvent).detail.page).to.equal('subscribe');
    // The subscribe workflow of the pending subscription, not an error in the portal.
    expect(await openedPortalPath()).to.match(/^\/hosted\/subscribe\//);
  });

  it('each validation cause has its own words', async () => {
    await freshStart('healthy');
    const seen = new Map<string, string>();
    // Beyond the plan's maximum (500 seats), more than the proxy sells at once (10,000), a
    // feature reference that cannot be one. (An on/off feature is not refused: it is sold as an
    // add-on, see buy-feature-add-on.test.ts.) The proxy's limit per purchase, once a price of
    // the page stated it, is said without asking (buy-feature-requests.test.ts); before, the
    // proxy's refusal says it.
    const said = (element: Element) => partText(element, 'error') || partText(element, 'invalid');
    const cases = [
      ['too many for the plan', html`<buy-feature feature="seats" quantity="600"></buy-feature>`],
      ['too many at once', html`<buy-feature feature="seats" quantity="20000"></buy-feature>`],
      ['bad reference', html`<buy-feature feature="Seats!"></buy-feature>`],
    ] as const;
    for (const [cause, template] of cases) {
      const element = await fixture<BuyFeature>(template);
      await waitUntil(() => said(element) !== '', `the ${cause} refusal`, {
        timeout: 8000,
      });
      expect(said(element), cause).not.to.include('This quantity cannot be bought');
      seen.set(cause, said(element));
      expect(part(element, 'retry'), cause).to.equal(null);
      await expect(element).to.be.accessible();
    }
    expect(new Set(seen.values()).size, [...seen.values()].join(' | ')).to.equal(cases.length);
  });

  it('a buy control on an on/off feature is its add-on, with no refusal or warning', async () => {
    await freshStart('healthy');
    const errors: BillingErrorEvent[] = [];
    const listener = (event: BillingErrorEvent) => errors.push(event);
    document.addEventListener('billing-error', listener);
    let element: BuyFeature | undefined;
    const lines = await warnings(async () => {
      // Part of Pro: included, nothing to buy. Sold apart on Pro: an add-on to add.
      element = await fixture<BuyFeature>(html`<buy-feature feature="sso"></buy-feature>`);
      await waitUntil(() => partText(element!, 'add-on-text') !== '', 'the sso add-on', {
        timeout: 8000,
      });
      const addOn = await fixture<BuyFeature>(
        html`<buy-feature feature="priority-support"></buy-feature>`,
      );
      await waitUntil(
        () => part(addOn, 'add') !== null && part(addOn, 'price-now') !== null,
        'Add',
        {
          timeout: 8000,
        },
      );
      expect(partText(addOn, 'add')).to.equal('Add Priority support');
    });
    document.removeEventListener('billing-error', listener);
    expect(partText(element!, 'add-on-text')).to.equal('Single sign-on: included in your plan.');
    expect(part(element!, 'error')).to.equal(null);
    expect(part(element!, 'input')).to.equal(null);
    expect(errors).to.deep.equal([]);
    expect(lines.filter((line) => line.includes('billing-elements'))).to.deep.equal([]);
    await expect(element!).to.be.accessible();
  });

  it('plurals follow the language, with the singular given', async () => {
    await freshStart('healthy');
    const english = await pricedElement(
      html`<buy-feature
        feature="seats"
        quantity="1"
        confirm="always"
        label="seats"
        label-one="seat"
      ></buy-feature>`,
    );
    await openConfirmation(english);
    expect(partText(english, 'dialog')).to.include('Add 1 seat').and.not.include('Add 1 seats');
    english.shadowRoot!.querySelector('dialog')!.close();

    // The French texts load on demand (English meanwhile): here before the French element's
    // first render, so its dialog is read in French whenever it opens.
    await loadLanguage('fr');
    const wrapper = await fixture<HTMLElement>(
      html`<div lang="fr">
        <buy-feature
          feature="seats"
          quantity="1"
          confirm="always"
          label="sièges"
          label-one="siège"
        ></buy-feature>
      </div>`,
    );
    const french = wrapper.querySelector('buy-feature')!;
    await waitForPrice(french);
    await openConfirmation(french);
    expect(partText(french, 'dialog')).to.include('Ajouter 1 siège').and.not.include('sièges');
    french.shadowRoot!.querySelector('dialog')!.close();
    await fixture(html`<div></div>`);

    // Several: the plural; no singular given: a sentence that reads for any number.
    const three = await pricedElement(
      html`<buy-feature feature="seats" quantity="3" label="seats" label-one="seat"></buy-feature>`,
    );
    await openConfirmation(three);
    expect(partText(three, 'dialog')).to.include('Add 3 seats');
    three.shadowRoot!.querySelector('dialog')!.close();
    const untitled = await pricedElement(
      html`<buy-feature feature="seats" quantity="1" confirm="always"></buy-feature>`,
    );
    await openConfirmation(untitled);
    expect(partText(untitled, 'dialog')).to.include('Seats: 1 more');
  });

  it('the dialog says how much of the quantity is included and how much is extra', async () => {
    // Three of five seats used: of three more, two are included and one is extra.
    await freshStart('healthy');
    const element = await pricedElement(
      html`<buy-feature feature="seats" quantity="3" label="seats" label-one="seat"></buy-feature>`,
    );
    await openConfirmation(element);
    expect(partText(element, 'split')).to.equal('2 included · 1 extra');
    await expect(element).to.be.accessible();
  });

  it('a discount reads with a real minus sign', async () => {
    await freshStart('discounted');
    const expected = await quote('seats', 3);
    const discount = expected.Details!.find((line) => (line.AmountTotal ?? 0) < 0);
    expect(discount, 'the service lists the discount').to.not.equal(undefined);
    const element = await pricedElement(
      html`<buy-feature feature="seats" quantity="3"></buy-feature>`,
    );
    await openConfirmation(element);
    const details = partText(element, 'details');
    const amount = money('en', -discount!.AmountTotal!);
    expect(details).to.include(`\u2212${amount}`);
    expect(details).not.to.match(/-\$/);
  });

  it('a free change says the recurring price is unchanged', async () => {
    await freshStart('healthy');
    const element = await pricedElement(
      html`<buy-feature feature="seats" quantity="1"></buy-feature>`,
    );
    expect(partText(element, 'price-next')).to.include('Recurring price unchanged');
    expect(partText(element, 'price-next')).not.to.include('New recurring price');
    // The term keeps its value for assistive technology, out of sight: the row stays one line.
    const value = part(element, 'price-next')!.querySelector('dd')!;
    expect(value.textContent?.trim()).to.equal('$49.00\u00a0/\u00a0month');
    expect(value.getBoundingClientRect().width).to.be.at.most(1);
    // A change that raises it says so.
    await type(element, '4');
    await waitUntil(() => partText(element, 'price-next').includes('New recurring price'), 'new', {
      timeout: 8000,
    });
  });

  it('an invalid or empty quantity keeps Buy in its row and the height of the element', async () => {
    await freshStart('healthy');
    const wrapper = await fixture<HTMLElement>(
      html`<div style="inline-size: 640px"><buy-feature feature="seats"></buy-feature></div>`,
    );
    const element = wrapper.querySelector('buy-feature')!;
    await waitForPrice(element);
    const layout = () => ({
      height: Math.round(element.getBoundingClientRect().height),
      buyTop: Math.round(part(element, 'buy')!.getBoundingClientRect().top),
    });
    const valid = layout();
    await type(element, '0');
    expect(partText(element, 'invalid')).to.include('1 or more');
    expect(layout()).to.deep.equal(valid);
    await type(element, '');
    expect(layout()).to.deep.equal(valid);
  });

  it('an empty quantity says why Buy is unavailable', async () => {
    await freshStart('healthy');
    const element = await pricedElement(html`<buy-feature feature="seats"></buy-feature>`);
    await type(element, '');
    const buy = part(element, 'buy')!;
    expect(buy.getAttribute('aria-disabled')).to.equal('true');
    const describedBy = buy.getAttribute('aria-describedby') ?? '';
    const reason = element.shadowRoot!.getElementById(describedBy);
    expect(reason?.textContent?.trim()).to.equal('Enter a quantity to see its price.');
    await expect(element).to.be.accessible();
  });

  it('French amounts and words come from the amounts, in the page language', async () => {
    // French texts load on demand (English meanwhile): loaded first, the element speaks French
    // from its first render.
    await loadLanguage('fr');
    await freshStart('healthy');
    const expected = await quote('seats', 4);
    const wrapper = await fixture<HTMLElement>(
      html`<div lang="fr"><buy-feature feature="seats" quantity="4"></buy-feature></div>`,
    );
    const element = wrapper.querySelector('buy-feature')!;
    await waitForPrice(element);
    expect(partText(element, 'price-now')).to.include(money('fr', expected.AmountTotal));
    expect(partText(element, 'price-now')).to.include('À payer maintenant');
    expect(partText(element, 'price-next')).to.include('Nouveau prix récurrent');
    expect(partText(element, 'price-next')).to.include(money('fr', expected.NextTerm!.AmountTotal));
    expect(partText(element, 'price-next')).to.include('/ mois');
    // The service's own lines are asked in French too.
    await openConfirmation(element);
    expect(partText(element, 'details')).to.include('Sièges');
    expect(partText(element, 'dialog')).not.to.match(/Due now|New recurring price/);
  });

  it('a language change prices again in the new language', async () => {
    await freshStart('healthy');
    const wrapper = await fixture<HTMLElement>(
      html`<div lang="en"><buy-feature feature="seats" quantity="4"></buy-feature></div>`,
    );
    const element = wrapper.querySelector('buy-feature')!;
    await waitForPrice(element);
    expect(partText(element, 'price-now')).to.include('Due now');
    const before = await proxyRequestCount('POST', '/billing/pricing');
    wrapper.lang = 'fr';
    await waitUntil(() => partText(element, 'price-now').includes('À payer'), 'French words', {
      timeout: 8000,
    });
    await waitUntil(
      async () => (await proxyRequestCount('POST', '/billing/pricing')) > before,
      'a new price',
      { timeout: 8000 },
    );
  });

  it('at 360 px, Buy shares its row and nothing overflows', async () => {
    await freshStart('healthy');
    const wrapper = await fixture<HTMLElement>(
      html`<div style="inline-size: 328px"><buy-feature feature="seats"></buy-feature></div>`,
    );
    const element = wrapper.querySelector('buy-feature')!;
    await waitForPrice(element);
    const input = part(element, 'input')!.getBoundingClientRect();
    const buy = part(element, 'buy')!.getBoundingClientRect();
    // Beside the quantity: the same row, to its right.
    expect(buy.top).to.be.below(input.bottom);
    expect(buy.bottom).to.be.above(input.top);
    expect(buy.left).to.be.at.least(input.right);
    expect(element.scrollWidth).to.be.at.most(element.clientWidth);
    await type(element, '0');
    const invalidBuy = part(element, 'buy')!.getBoundingClientRect();
    expect(invalidBuy.top).to.equal(buy.top);
  });
});
