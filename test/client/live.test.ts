import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { configureBilling } from '../../src/client/config.js';
import type { BillingUpdatedEvent } from '../../src/client/events.js';
import '../../src/elements/usage-meter/define.js';
import {
  freshStart,
  nextEvent,
  proxyRequestCount,
  sandbox,
  serviceApi,
  purchaseElsewhere,
  streamOpen,
  until,
} from '../browser/billing.js';

// Live updates against the real proxy and sandbox: a change made elsewhere reaches an open page
// through the proxy's event stream, without a reload.

function valueOf(meter: Element): string | null | undefined {
  return meter.shadowRoot?.querySelector('[role="meter"]')?.getAttribute('aria-valuenow');
}

describe('live updates', () => {
  beforeEach(() => freshStart('healthy'));

  it('updates an open meter when the billing changes elsewhere, and says so once', async () => {
    const page = await fixture<HTMLElement>(
      html`<div>
        <usage-meter feature="projects"></usage-meter>
        <usage-meter feature="seats"></usage-meter>
      </div>`,
    );
    const meter = page.querySelector('usage-meter')!;
    await until(() => valueOf(meter) === '4', 'the meter at 4 projects');
    await streamOpen();
    const updated = oneEvent(document, 'billing-updated') as Promise<BillingUpdatedEvent>;
    const started = performance.now();
    await purchaseElsewhere('projects');
    expect((await updated).detail.endpoint).to.equal('/billing');
    await until(() => valueOf(meter) === '5', 'the meter at 5 projects, without a reload');
    expect(performance.now() - started).to.be.below(1000);
    // One stream for the page, whatever the number of elements.
    expect(await proxyRequestCount('GET', '/billing/events')).to.equal(1);
    await expect(meter).to.be.accessible();
  });

  it('opens no stream when live updates are off', async () => {
    configureBilling({ live: false });
    const meter = await fixture<HTMLElement>(html`<usage-meter feature="projects"></usage-meter>`);
    await until(() => valueOf(meter) === '4', 'the meter at 4 projects');
    // A stream of the test's own hears the change: by then a page with live updates would
    // have heard it too.
    const stream = new EventSource('/billing/events', { withCredentials: true });
    try {
      await nextEvent(stream, 'open');
      const told = nextEvent(stream, 'billing-changed');
      await purchaseElsewhere('projects');
      await told;
    } finally {
      stream.close();
    }
    expect(valueOf(meter)).to.equal('4');
    // The test's stream, none of the page.
    expect(await proxyRequestCount('GET', '/billing/events')).to.equal(1);
  });
});

describe('live updates from the billing service', () => {
  beforeEach(() => freshStart('healthy'));

  it('moves an open meter when the service applies a usage reported by the back end', async () => {
    const meter = await fixture<HTMLElement>(html`<usage-meter feature="projects"></usage-meter>`);
    await until(() => valueOf(meter) === '4', 'the meter at 4 projects');
    await streamOpen();
    const started = performance.now();
    // The host's back end reports a project straight to the service; its notification reaches
    // the proxy's webhook, then this page.
    await serviceApi('Usage', {
      ReferenceCustomer: 'healthy',
      ReferenceFeature: 'projects',
      Increment: 1,
      DateStamp: new Date().toISOString(),
    });
    await until(() => valueOf(meter) === '5', 'the meter at 5 projects, without a reload');
    expect(performance.now() - started).to.be.below(1000);
  });

  it('shows <buy-feature> the restart remedy after a suspension notification', async () => {
    await import('../../src/elements/buy-feature/define.js');
    const page = await fixture<HTMLElement>(
      html`<div>
        <usage-meter feature="seats"></usage-meter>
        <buy-feature feature="seats" quantity="1"></buy-feature>
      </div>`,
    );
    const buy = page.querySelector('buy-feature')!;
    await until(
      () => buy.shadowRoot?.querySelector('[part~="amount"], [part~="price"]') != null,
      'the price preview',
    );
    await streamOpen();
    const state = await sandbox<{ subscriptions: { Id: number; StateSubscription: string }[] }>(
      'customers/healthy',
    );
    const running = state.subscriptions.find((sub) => sub.StateSubscription === 'Running')!;
    await sandbox(`subscriptions/${running.Id}/suspend`, {});
    await until(
      () => buy.shadowRoot?.querySelector('[part~="remedy"]') != null,
      'the restart remedy',
      3000,
    );
    expect(buy.shadowRoot!.querySelector('[part~="remedy"]')!.textContent).to.match(/restart/i);
    await expect(buy).to.be.accessible();
  });
});
