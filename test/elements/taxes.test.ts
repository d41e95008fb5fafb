import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { loadLanguage } from '../../src/client/i18n.js';
import type { BuyFeature } from '../../src/elements/buy-feature/buy-feature.js';
import type { PlanPicker } from '../../src/elements/plan-picker/plan-picker.js';
import '../../src/elements/buy-feature/define.js';
import '../../src/elements/plan-picker/define.js';
import {
  animationsDone,
  closePortalDialogs,
  dialogOf,
  freshStart,
  openConfirmation,
  part,
  pricedElement,
  waitForDialog,
} from './buy-feature-helpers.js';

// Whether prices include tax, as the business says through its proxy's `taxes` option (the
// proxies of test/browser-server.ts at /billing-tax-included and /billing-tax-excluded): said
// once under the plans, and in every confirmation's price block, which describes the dialog.
// A proxy without the option (/billing) says nothing of tax.

const text = (element: Element | null | undefined) =>
  element?.textContent?.replace(/\s+/g, ' ').trim() ?? '';

/** The `taxes` part of the dialog's price block. */
const dialogTaxes = (element: Element) => text(dialogOf(element).querySelector('[part~="taxes"]'));

async function picker(endpoint: string, lang = 'en'): Promise<PlanPicker> {
  const element = await fixture<PlanPicker>(
    html`<plan-picker endpoint=${endpoint} lang=${lang}></plan-picker>`,
  );
  await waitUntil(() => part(element, 'offer') !== null, 'plans shown', { timeout: 8000 });
  return element;
}

async function chooseBusiness(element: PlanPicker): Promise<void> {
  element.shadowRoot!.querySelector<HTMLButtonElement>('[data-offer="business"]')!.click();
  await waitForDialog(element);
  await animationsDone(element);
}

describe('prices and tax', () => {
  afterEach(closePortalDialogs);

  it('<plan-picker> says once under the plans, and in its dialog, that prices include tax', async () => {
    await freshStart('healthy');
    const element = await picker('/billing-tax-included');
    const notes = element.shadowRoot!.querySelectorAll('.cards ~ [part~="taxes"]');
    expect(notes.length).to.equal(1);
    expect(text(notes[0])).to.equal('Prices include tax.');
    // After the cards, never inside one: one statement for every price of the grid.
    expect(element.shadowRoot!.querySelector('[part~="offer"] [part~="taxes"]')).to.equal(null);
    await chooseBusiness(element);
    expect(dialogTaxes(element)).to.equal('Prices include tax.');
    // In the price block that describes the dialog: read with the price.
    const quote = dialogOf(element).querySelector('#quote')!;
    expect(quote.contains(dialogOf(element).querySelector('[part~="taxes"]'))).to.equal(true);
    await expect(element).to.be.accessible();
    part<HTMLButtonElement>(element, 'cancel')!.click();
    await waitForDialog(element, false);
  });

  it('<plan-picker> says in French that tax is added on the invoice', async () => {
    await freshStart('healthy');
    const element = await picker('/billing-tax-excluded', 'fr');
    await loadLanguage('fr');
    await element.updateComplete;
    expect(text(part(element, 'taxes'))).to.equal(
      'Prix hors taxes\u00a0: les taxes s’ajoutent sur la facture.'.replace(/\s+/g, ' '),
    );
    await chooseBusiness(element);
    expect(dialogTaxes(element)).to.equal('Prix hors taxes : les taxes s’ajoutent sur la facture.');
    part<HTMLButtonElement>(element, 'cancel')!.click();
    await waitForDialog(element, false);
  });

  it('<buy-feature> says it in the purchase dialog, under the prices', async () => {
    await freshStart('healthy');
    const element = await pricedElement(
      html`<buy-feature
        endpoint="/billing-tax-included"
        feature="seats"
        quantity="3"
      ></buy-feature>`,
    );
    await openConfirmation(element as BuyFeature);
    expect(dialogTaxes(element)).to.equal('Prices include tax.');
    const quote = dialogOf(element).querySelector('#quote')!;
    expect(text(quote).endsWith('Prices include tax.')).to.equal(true, text(quote));
    part<HTMLButtonElement>(element, 'cancel')!.click();
    await waitForDialog(element, false);
  });

  it('says nothing of tax when the business did not say', async () => {
    await freshStart('healthy');
    const element = await picker('/billing');
    expect(part(element, 'taxes')).to.equal(null);
    await chooseBusiness(element);
    expect(dialogOf(element).querySelector('[part~="taxes"]')).to.equal(null);
    part<HTMLButtonElement>(element, 'cancel')!.click();
    await waitForDialog(element, false);
    const buy = await pricedElement(html`<buy-feature feature="seats" quantity="3"></buy-feature>`);
    await openConfirmation(buy);
    expect(dialogOf(buy).querySelector('[part~="taxes"]')).to.equal(null);
    part<HTMLButtonElement>(buy, 'cancel')!.click();
    await waitForDialog(buy, false);
  });
});
