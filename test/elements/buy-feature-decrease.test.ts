import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import type { BillingDecreaseEvent } from '../../src/client/decrease-events.js';
import type { BuyFeature } from '../../src/elements/buy-feature/buy-feature.js';
import {
  animationsDone,
  dialogOf,
  focusedPart,
  freshStart,
  part,
  partText,
  sandboxStats,
  serviceApi,
  waitForDialog,
  waitForPrice,
  waitForText,
} from './buy-feature-helpers.js';

// <buy-feature allow-decrease>: lowering seats the customer owns, against the real proxy and
// sandbox. healthy is on Pro (4900 a month, 5 seats included, then 10.00 a seat) and is brought
// to 7 seats (2 extra, 69.00 a month) through the service first.

const pendingKeys = () =>
  Object.keys(sessionStorage).filter((key) => key.includes('pending-decrease'));

async function sevenSeats(): Promise<void> {
  await serviceApi('Usage', {
    ReferenceCustomer: 'healthy',
    ReferenceFeature: 'seats',
    QuantityCurrent: 7,
  });
}

async function seatsNow(): Promise<number> {
  const usages = await serviceApi<{
    Items: { ReferenceFeature: string; QuantityCurrent: number }[];
  }>('Usages?ReferenceCustomer=healthy');
  return usages.Items.find((usage) => usage.ReferenceFeature === 'seats')!.QuantityCurrent;
}

/** Presses Remove once it can be pressed and waits for the confirmation, its animation done. */
async function askToRemove(element: BuyFeature): Promise<void> {
  await waitUntil(
    () => part(element, 'remove')?.getAttribute('aria-disabled') === 'false',
    'Remove enabled',
    { timeout: 8000 },
  );
  part<HTMLButtonElement>(element, 'remove')!.click();
  await waitForDialog(element);
  await waitUntil(() => part(element, 'confirm') !== null, 'the dialog shows its Confirm', {
    timeout: 8000,
  });
  await element.updateComplete;
  await animationsDone(element);
}

describe('<buy-feature allow-decrease>', () => {
  /** healthy at 7 seats, a meter and the element on the page, both loaded. */
  async function sevenSeatsPage(): Promise<{ element: BuyFeature; figures: () => string }> {
    await freshStart('healthy');
    await sevenSeats();
    await import('../../src/elements/usage-meter/define.js');
    const page = await fixture<HTMLElement>(
      html`<div>
        <usage-meter feature="seats"></usage-meter>
        <buy-feature feature="seats" label="seats" label-one="seat" quantity="2" allow-decrease>
        </buy-feature>
      </div>`,
    );
    const element = page.querySelector('buy-feature')!;
    const meter = page.querySelector('usage-meter')!;
    await waitForPrice(element);
    const figures = () => meter.shadowRoot!.querySelector('[part~="figures"]')?.textContent ?? '';
    await waitUntil(() => figures().includes('7'), 'the meter shows 7 seats');
    return { element, figures };
  }

  it('shows the effect before confirming: what changes now and the next recurring price', async () => {
    const { element } = await sevenSeatsPage();
    // Without in-use, the floor is the plan's 5 included seats: 2 can be removed.
    await waitForText(element, 'decrease-text', 'Seats: you have 7, and can remove up to 2.');
    expect(partText(element, 'remove')).to.equal('Remove 2 seats');
    await expect(element).to.be.accessible();

    await askToRemove(element);
    expect(partText(element, 'dialog-title')).to.equal('Remove 2 seats?');
    const summary = element.shadowRoot!.querySelector('#summary')!;
    expect(summary.textContent!.trim()).to.equal(
      'Seats: from 7 to 5, starting now. What was already billed for this period is not refunded.',
    );
    expect(summary.getAttribute('data-tone')).to.equal('destructive');
    expect(partText(element, 'quote')).to.include('New recurring price');
    expect(partText(element, 'amount')).to.include('$49.00');
    expect(partText(element, 'confirm')).to.equal('Remove 2 seats');
    expect(part(element, 'confirm')!.getAttribute('part')).to.include('destructive');
    // A stray Enter must never change anything: the focus is on Cancel.
    expect(focusedPart(element)).to.equal('button cancel');
    await expect(element).to.be.accessible();
    expect(await seatsNow()).to.equal(7);
  });

  it('applies once on a double click, says so, and the meter shows the new limit', async () => {
    const { element, figures } = await sevenSeatsPage();
    await askToRemove(element);
    const decreased = oneEvent(element, 'billing-decrease');
    const confirm = part<HTMLButtonElement>(element, 'confirm')!;
    confirm.click();
    confirm.click();
    await element.updateComplete;
    expect(dialogOf(element).getAttribute('aria-busy')).to.equal('true');
    const event = (await decreased) as BillingDecreaseEvent;
    expect(event.detail).to.include({
      feature: 'seats',
      quantity: 5,
      amountTotal: 0,
      nextTermAmountTotal: 4900,
      replayed: false,
    });
    await waitForText(element, 'success', 'Done. You now have 5 seats.');
    await waitForDialog(element, false);
    await waitUntil(() => figures().includes('5') && !figures().includes('7'), 'the meter shows 5');
    // At the floor now: nothing more to remove, so no Remove.
    await waitUntil(() => part(element, 'remove') === null, 'Remove gone at the floor');

    const stats = await sandboxStats();
    expect(stats.appliedUsageChanges).to.equal(2);
    expect(stats.requests['POST /v1/Usage']).to.equal(2);
    expect(await seatsNow()).to.equal(5);
    expect(pendingKeys()).to.have.length(0);
  });

  it('never goes below what is in use: more than can be removed is unavailable', async () => {
    await freshStart('healthy');
    await sevenSeats();
    const element = await fixture<BuyFeature>(
      html`<buy-feature feature="seats" label="seats" quantity="2" in-use="6" allow-decrease>
      </buy-feature>`,
    );
    await waitForText(element, 'decrease-text', 'you have 7, and can remove up to 1.');
    expect(partText(element, 'remove')).to.equal('Remove 2 seats');
    expect(part(element, 'remove')!.getAttribute('aria-disabled')).to.equal('true');
    part<HTMLButtonElement>(element, 'remove')!.click();
    await element.updateComplete;
    expect(dialogOf(element).open).to.equal(false);

    // In use below the plan's included quantity: that is the floor.
    element.inUse = 3;
    await waitForText(element, 'decrease-text', 'can remove up to 4.');
    expect(part(element, 'remove')!.getAttribute('aria-disabled')).to.equal('false');
    expect(await seatsNow()).to.equal(7);
  });

  it('says the recurring price stays when the seats removed were included in the plan', async () => {
    await freshStart('healthy');
    await serviceApi('Usage', {
      ReferenceCustomer: 'healthy',
      ReferenceFeature: 'seats',
      QuantityCurrent: 5,
    });
    const element = await fixture<BuyFeature>(
      html`<buy-feature feature="seats" label="seats" quantity="2" in-use="3" allow-decrease>
      </buy-feature>`,
    );
    await waitForText(element, 'decrease-text', 'you have 5, and can remove up to 2.');
    await askToRemove(element);
    // From 5 to 3 of the 5 included: Pro's $49.00 a month, as before.
    expect(partText(element, 'quote')).to.match(/^Recurring price unchanged \$49\.00/);
    part<HTMLButtonElement>(element, 'cancel')!.click();
    await waitForDialog(element, false);
    expect(await seatsNow()).to.equal(5);
  });

  it('refuses a price changed since it was shown, shows the new one, and changes nothing', async () => {
    await freshStart('healthy');
    await sevenSeats();
    const element = await fixture<BuyFeature>(
      html`<buy-feature feature="seats" label="seats" quantity="2" allow-decrease></buy-feature>`,
    );
    await waitForText(element, 'decrease-text', 'can remove up to 2.');
    await askToRemove(element);
    expect(partText(element, 'amount')).to.include('$49.00');
    // Meanwhile the customer adds Priority support (9.00 a month) on another device.
    await serviceApi('Usage', {
      ReferenceCustomer: 'healthy',
      ReferenceFeature: 'priority-support',
      IsEnabled: true,
    });
    part<HTMLButtonElement>(element, 'confirm')!.click();
    await waitForText(element, 'price-changed', 'The price has changed.');
    expect(dialogOf(element).open).to.equal(true);
    expect(partText(element, 'amount')).to.include('$58.00');
    expect(await seatsNow()).to.equal(7);
    expect((await sandboxStats()).requests['POST /v1/Usage']).to.equal(2);

    // Confirming the new price applies it, once.
    await animationsDone(element);
    part<HTMLButtonElement>(element, 'confirm')!.click();
    await waitForText(element, 'success', 'You now have 5 seats.');
    expect(await seatsNow()).to.equal(5);
  });
});
