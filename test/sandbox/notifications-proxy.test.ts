// End to end, the only sandbox test that runs the proxy: the sandbox's webhook posts to the real
// proxy (src/server) on a node:http server, and a usage applied on the service's API directly
// (as the host's back end reports it, not through the proxy) reaches that customer's open page
// as a `billing-changed` event within a second.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import {
  createBillingProxy,
  toNodeHandler,
  type BillingProxy,
  type ProxyLogEntry,
} from '../../src/server/index.js';
import { listen, proxyOptions, readEventBlocks, serviceCall } from '../server/helpers.js';
import { useTestSandbox } from './helpers.js';

const SECRET = 'end-to-end-webhook-secret';
const KEY = 'wh_end_to_end';

/** A page's event stream, read over HTTP: the names of the events received, with their time. */
async function openStream(url: string, customer: string) {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { cookie: `session=${customer}`, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
  const events: { event: string; at: number }[] = [];
  readEventBlocks(response.body!.getReader(), (block) => {
    const name = /^event: (.+)$/m.exec(block)?.[1];
    if (name !== undefined) events.push({ event: name, at: Date.now() });
  });
  return { events, close: () => controller.abort() };
}

async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`${what} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('notifications end to end: sandbox webhook -> proxy -> open page', () => {
  const t = useTestSandbox();
  let proxy: BillingProxy;
  let proxyOrigin: string;
  const logged: ProxyLogEntry[] = [];
  const server = createServer();

  before(async () => {
    proxy = createBillingProxy(
      proxyOptions(t.sandbox, {
        notifications: { secret: SECRET, key: KEY },
        logger: (entry) => void logged.push(entry),
      }),
    );
    server.on('request', toNodeHandler(proxy));
    proxyOrigin = await listen(server);
  });
  after(async () => {
    await proxy.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('a usage applied on the service reaches the customer’s open page within a second', async (context) => {
    // The webhook is registered: the proxy answers the verification and logs its code.
    const target = await t.control('POST', '/webhooks', {
      url: `${proxyOrigin}/billing/webhooks`,
      secret: SECRET,
      key: KEY,
    });
    assert.equal(target.status, 201, target.text);
    await until(
      () => logged.some((entry) => entry.event === 'webhook-verification'),
      3_000,
      'no verification',
    );
    const verification = logged.find((entry) => entry.event === 'webhook-verification');
    assert.match(String(verification?.message), new RegExp(target.body.verificationCode));

    const page = await openStream(`${proxyOrigin}/billing/events`, 'healthy');
    const otherTab = await openStream(`${proxyOrigin}/billing/events`, 'healthy');
    const stranger = await openStream(`${proxyOrigin}/billing/events`, 'starter-plan');
    try {
      // The host's back end reports usage to the service directly, with the API credentials.
      const started = Date.now();
      const applied = await serviceCall(t.sandbox, 'POST', '/v1/Usage', {
        ReferenceCustomer: 'healthy',
        ReferenceFeature: 'api-calls',
        Increment: 25,
      });
      assert.equal(applied.status, 200);
      await until(() => page.events.length > 0, 1_000, 'no billing-changed event');
      await until(() => otherTab.events.length > 0, 1_000, 'no event on the other tab');
      assert.equal(page.events[0]?.event, 'billing-changed');
      const latency = (page.events[0]?.at ?? Infinity) - started;
      assert.ok(latency < 1_000, `the page heard of it ${latency} ms after the usage call`);
      context.diagnostic(`usage call to billing-changed on the page: ${latency} ms`);

      // The proxy took it as signed and for that customer only.
      const notified = logged.filter((entry) => entry.event === 'notification');
      assert.deepEqual(
        notified.map((entry) => entry.message),
        ['SubscriptionFeaturesUpdated for healthy'],
      );

      // A replay has the same Id: the proxy drops it, the page hears nothing more.
      const [record] = (await t.control('GET', '/webhooks/deliveries?customer=healthy')).body
        .notifications;
      assert.equal(record.deliveries[0].state, 'delivered');
      assert.equal(record.deliveries[0].attempts[0].status, 200);
      const replayed = await t.control('POST', `/webhooks/deliveries/${record.Id}/replay`);
      assert.equal(replayed.status, 202);
      let replay: { state: string; attempts: { status: number }[] } | undefined;
      const readReplay = async () => {
        const now = await t.control('GET', `/webhooks/deliveries/${record.Id}`);
        replay = now.body.deliveries[1];
      };
      const deadline = Date.now() + 1_000;
      for (await readReplay(); replay?.state !== 'delivered'; await readReplay()) {
        if (Date.now() > deadline) assert.fail(`replay: ${JSON.stringify(replay)}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.equal(replay?.attempts[0]?.status, 200, 'the proxy acknowledged the duplicate');
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(page.events.length, 1, 'the replay was a duplicate');
      assert.equal(stranger.events.length, 0, 'another customer hears nothing');
    } finally {
      page.close();
      otherTab.close();
      stranger.close();
    }
  });
});
