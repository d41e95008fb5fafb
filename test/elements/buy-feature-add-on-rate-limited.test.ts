import { expect, fixture, html } from '@open-wc/testing';
import { loadLanguage } from '../../src/client/i18n.js';
import type { BuyFeature } from '../../src/elements/buy-feature/buy-feature.js';
import {
  freshStart,
  openConfirmation,
  part,
  partText,
  sandboxStats,
  standing,
  waitForPrice,
  waitForText,
} from './buy-feature-helpers.js';

// <buy-feature> on an on/off feature when the proxy refuses its price with 429 `rate-limited`:
// the real proxy mounted at /billing-limited (test/browser-server.ts) allows a customer a burst
// of 2 prices, then one every 100 s. The add-on says what happened, in the words of its code, as
// a quantity does, whether it offers "Try again" itself or points to the element that does.

const LIMITED = '/billing-limited';
const FEATURE = 'priority-support';

/**
 * Spends the signed-in customer's budget at the rate-limited proxy, whatever an earlier test left
 * of it: every price asked there is answered 429 from then on.
 */
async function spendRateLimit(feature = FEATURE): Promise<void> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const response = await fetch(`${LIMITED}/pricing`, {
      method: 'POST',
      credentials: 'include',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(
        feature === FEATURE ? { feature, enabled: true } : { feature, increment: 1 },
      ),
    });
    await response.body?.cancel();
    if (response.status === 429) return;
  }
  throw new Error(`${LIMITED} never answered 429`);
}

describe('<buy-feature> add-on mode, rate-limited', function () {
  // Two elements price and read their usages before their texts are asked for.
  this.timeout(20_000);

  it('says "Too many requests" with Try again, not that billing is out of reach', async () => {
    await freshStart('starter-plan');
    await spendRateLimit();
    const element = await fixture<BuyFeature>(
      html`<buy-feature feature=${FEATURE} endpoint=${LIMITED}></buy-feature>`,
    );
    await standing(element, 'refused');
    await waitForText(element, 'error', 'Too many requests. Wait a moment and try again.');
    expect(part(element, 'retry')).to.not.equal(null);
    expect(part(element, 'add')!.getAttribute('aria-disabled')).to.equal('true');
  });

  it('says it beside a quantity that offers Try again for both, as the quantity does', async () => {
    await freshStart('starter-plan');
    await spendRateLimit();
    const page = await fixture<HTMLElement>(
      html`<div>
        <buy-feature feature="seats" endpoint=${LIMITED}></buy-feature>
        <buy-feature feature=${FEATURE} endpoint=${LIMITED}></buy-feature>
      </div>`,
    );
    const [seats, addOn] = [...page.querySelectorAll<BuyFeature>('buy-feature')] as [
      BuyFeature,
      BuyFeature,
    ];
    await waitForText(seats, 'error', 'Too many requests. Wait a moment and try again.');
    await standing(addOn, 'refused');
    // The seats offer the one "Try again"; the add-on says the same and points to it.
    await waitForText(addOn, 'waits', 'Too many requests. Wait a moment and try again.');
    expect(partText(addOn, 'waits')).to.not.include('could not be reached');
    expect(part(addOn, 'pointer')).to.not.equal(null);
    expect(part(addOn, 'retry')).to.equal(null);
  });

  it('says it in French', async () => {
    await loadLanguage('fr');
    await freshStart('starter-plan');
    await spendRateLimit();
    const page = await fixture<HTMLElement>(
      html`<div lang="fr">
        <buy-feature feature="seats" endpoint=${LIMITED}></buy-feature>
        <buy-feature feature=${FEATURE} endpoint=${LIMITED}></buy-feature>
      </div>`,
    );
    const addOn = page.querySelectorAll<BuyFeature>('buy-feature')[1]!;
    await standing(addOn, 'refused');
    await waitForText(addOn, 'waits', 'Trop de demandes. Patientez un instant puis réessayez.');
  });

  it('says a purchase refused for too many requests was not made, and keeps no key', async () => {
    // Dana, whom no other test prices here: her burst of 2 pays for the price shown, then is
    // spent, and the Confirm meets the 429 before anything reaches the service.
    await freshStart('discounted');
    const element = await fixture<BuyFeature>(
      html`<buy-feature feature="seats" quantity="1" endpoint=${LIMITED}></buy-feature>`,
    );
    await waitForPrice(element);
    await openConfirmation(element);
    await spendRateLimit('seats');
    part<HTMLButtonElement>(element, 'confirm')!.click();
    await waitForText(element, 'error', 'Too many requests. Wait a moment and try again.');
    expect(partText(element, 'error')).to.not.include('could not confirm');
    expect(Object.keys(sessionStorage).filter((key) => key.includes('pending'))).to.deep.equal([]);
    expect((await sandboxStats()).appliedUsageChanges).to.equal(0);
  });
});
