// End to end, the only sandbox test that runs the proxy: the sandbox's webhook posts to the real
// proxy (src/server) on a node:http server, and a usage applied on the service's API directly
// (as the host's back end reports it, not through the proxy) reaches that customer's open page
// as a `billing-changed` event within a second.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import {
  createBillingProxy,
  createMemorySignalBus,
  toNodeHandler,
  type BillingProxy,
  type ProxyLogEntry,
} from '../../src/server/index.js';
import { heardOn, listen, proxyOptions, readEventBlocks, serviceCall } from '../server/helpers.js';
import { waitFor } from '../time.js';
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
  const events: { event: string; id: string; at: number }[] = [];
  readEventBlocks(response.body!.getReader(), (block) => {
    const name = /^event: (.+)$/m.exec(block)?.[1];
    const id = /^id: (.+)$/m.exec(block)?.[1] ?? '';
    if (name !== undefined) events.push({ event: name, id, at: Date.now() });
  });
  return { events, close: () => controller.abort() };
}

describe('notifications end to end: sandbox webhook -> proxy -> open page', () => {
  const t = useTestSandbox();
  let proxy: BillingProxy;
  let proxyOrigin: string;
  const logged: ProxyLogEntry[] = [];
  const server = createServer();

  const signals = createMemorySignalBus();
  const bus = heardOn(signals);

  before(async () => {
    proxy = createBillingProxy(
      proxyOptions(t.sandbox, {
        notifications: { secret: SECRET, key: KEY },
        logger: (entry) => void logged.push(entry),
        signals,
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
    await waitFor(
      () => logged.some((entry) => entry.event === 'webhook-verification'),
      'the verification',
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
      await waitFor(() => page.events.length > 0, 'a billing-changed event');
      await waitFor(() => otherTab.events.length > 0, 'an event on the other tab');
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
      await waitFor(async () => {
        const now = await t.control('GET', `/webhooks/deliveries/${record.Id}`);
        replay = now.body.deliveries[1];
        return replay?.state === 'delivered';
      }, 'the replay to be delivered');
      assert.equal(replay?.attempts[0]?.status, 200, 'the proxy acknowledged the duplicate');
      // Later changes, one per customer, each followed until the proxy has handled it: their
      // signals come after one for the replay would have.
      for (const customer of ['healthy', 'starter-plan']) {
        const later = await serviceCall(t.sandbox, 'POST', '/v1/Usage', {
          ReferenceCustomer: customer,
          ReferenceFeature: 'api-calls',
          Increment: 1,
        });
        assert.equal(later.status, 200);
        const { Id } = await waitFor(
          async () =>
            (
              (await t.control('GET', `/webhooks/deliveries?customer=${customer}`)).body
                .notifications as { Id: string }[]
            ).find((notification) => notification.Id !== record.Id),
          `the notification of ${customer}’s later change`,
        );
        await waitFor(
          () => logged.some((entry) => entry.event === 'notification' && entry.id === Id),
          `the proxy to handle ${customer}’s later change`,
        );
      }
      assert.equal(bus.ids('healthy').length, 2, 'the replay was a duplicate');
      await waitFor(() => page.events.length >= 2, 'the later change on the page');
      assert.deepEqual(
        page.events.map(({ id }) => id),
        bus.ids('healthy'),
        'the replay was a duplicate',
      );
      await waitFor(() => stranger.events.length > 0, 'the other customer’s own change');
      assert.deepEqual(
        stranger.events.map(({ id }) => id),
        bus.ids('starter-plan'),
        'another customer hears only of its own',
      );
    } finally {
      page.close();
      otherTab.close();
      stranger.close();
    }
  });
});
