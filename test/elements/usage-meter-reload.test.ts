import { expect } from '@open-wc/testing';
import '../../src/elements/usage-meter/define.js';
import type { UsageMeter } from '../../src/elements/usage-meter/usage-meter.js';
import { getUsageStore } from '../../src/client/usage-store.js';
import { addFault, freshStart, proxyRequestCount, until } from '../browser/billing.js';
import { openFrame, type TestFrame } from '../browser/frames.js';

// A reload within the browser session: a new page (a same-origin frame, with its own copy of
// the runtime, sharing this tab's session storage) paints its meters from the session cache,
// before any answer of the network. The proxy's usages are held meanwhile, so a meter that
// waited for them could not show its figures in time.

/** How long the billing service holds the usages: far longer than painting from the cache. */
const HELD_MS = 4_000;

const figures = (meter: UsageMeter) =>
  (meter.shadowRoot?.querySelector('[part~="figures"]')?.textContent ?? '')
    .replace(/\s+/g, ' ')
    .trim();

describe('<usage-meter> after a reload', () => {
  let reloaded: TestFrame | undefined;
  beforeEach(() => freshStart('healthy'));
  afterEach(() => reloaded?.remove());

  it('paints the cached figures before any network answer', async () => {
    // The first visit: the usages come from the proxy and are kept for the session.
    await getUsageStore().load();
    const fetched = await proxyRequestCount('GET', '/billing/usages');
    expect(fetched).to.equal(1);

    await addFault({ route: 'GET /v1/Usages', mode: 'delay', delayMs: HELD_MS });
    reloaded = await openFrame();
    const started = performance.now();
    const meter = reloaded.document.createElement('usage-meter') as UsageMeter;
    meter.feature = 'seats';
    reloaded.document.body.append(meter);
    await until(() => meter.state === 'ready', 'the reloaded meter to show its figures');
    const paintedMs = performance.now() - started;
    await meter.updateComplete;

    expect(figures(meter)).to.equal('3 of 5');
    expect(paintedMs).to.be.lessThan(HELD_MS / 2);
    // Painted from the cache: the reload asked the proxy for nothing.
    expect(await proxyRequestCount('GET', '/billing/usages')).to.equal(fetched);
    console.log(
      `session cache: the reloaded meter showed its figures ${paintedMs.toFixed(0)} ms after connecting (usages held ${HELD_MS} ms)`,
    );
  });
});
