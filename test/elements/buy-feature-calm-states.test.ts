import { expect, fixture, html } from '@open-wc/testing';
import type { BuyFeature } from '../../src/elements/buy-feature/buy-feature.js';
import { proxyRequestCount } from '../browser/billing.js';
import {
  closePortalDialogs,
  freshStart,
  part,
  partText,
  waitForText,
} from './buy-feature-helpers.js';
import '../../src/elements/buy-feature/define.js';

// What a newcomer driving the demo found wrong in <buy-feature> (session 3, "a fresh pair of
// eyes"): states where nothing needs buying, or where something was just bought, must read as
// calm and settled, not as a purchase to make. Against the real proxy over the real sandbox.

afterEach(() => closePortalDialogs());

describe('<buy-feature> when nothing needs buying', () => {
  it('says an unlimited feature has nothing to buy, and prices nothing', async () => {
    // The unlimited customer's Business plan gives unlimited seats: no "Buy 1 seat · $0.00".
    await freshStart('unlimited');
    const before = await proxyRequestCount('POST', '/billing/pricing');
    const element = await fixture<BuyFeature>(
      html`<buy-feature feature="seats" label="seats" label-one="seat"></buy-feature>`,
    );
    await waitForText(element, 'unlimited', 'Seats: unlimited in your plan, nothing to buy.');
    expect(part(element, 'buy')).to.equal(null);
    expect(part(element, 'input')).to.equal(null);
    expect(part(element, 'price')).to.equal(null);
    expect(partText(element, 'unlimited')).to.not.contain('$');
    await expect(element).to.be.accessible();
    expect((await proxyRequestCount('POST', '/billing/pricing')) - before).to.equal(0);
  });
});
