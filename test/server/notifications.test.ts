// The service's notifications (webhooks) reach every open page of that customer: the signature,
// the verification handshake, deduplication, the event streams, isolation between customers,
// Last-Event-ID resumes, and two proxy instances over a real redis-server.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import {
  createBillingProxy,
  createMemorySignalBus,
  createRedisIdempotencyStore,
  createRedisSignalBus,
  webhookSignature,
  type BillingNotification,
  type BillingProxy,
  type BillingProxyOptions,
  type SignalBus,
  toNodeHandler,
} from '../../src/server/index.js';
import {
  APP_ORIGIN,
  browserRequest,
  collectingLogger,
  heardOn,
  listen,
  proxyOptions,
  readEventBlocks,
  useSandbox,
} from './helpers.js';
import { startRedis } from './redis-server.js';
import { waitFor } from '../time.js';

const SECRET = 'webhook-secret-for-tests';
const KEY = 'wh_test_key';

let sequence = 0;
/** A notification envelope as the service sends it. */
function notification(customer: string, type = 'SubscriptionUpdated', id?: string) {
  sequence += 1;
  return {
    Id: id ?? `ntf-${Date.now()}-${sequence}`,
    IdBusiness: 4242,
    IdSegment: 1,
    ReferenceSegment: 'main',
    DateTrigger: new Date().toISOString(),
    TypeTrigger: type,
    Customer: { ReferenceCustomer: customer, Email: `${customer}@example.test` },
  };
}

async function deliver(
  proxy: BillingProxy,
  body: unknown,
  {
    key = KEY,
    secret = SECRET,
    signature,
  }: { key?: string; secret?: string; signature?: string } = {},
) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key !== '') headers['x-service-key'] = key;
  const signed = signature ?? (await webhookSignature(key, secret));
  if (signed !== '') headers['x-service-signature'] = signed;
  const response = await proxy.handler(
    new Request(`${APP_ORIGIN}/billing/webhooks`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    }),
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** An open event stream of `customer`, read event by event. */
async function openEvents(proxy: BillingProxy, customer: string, lastEventId?: string) {
  const controller = new AbortController();
  const request = browserRequest('/events', {
    customer,
    headers: lastEventId === undefined ? {} : { 'last-event-id': lastEventId },
  });
  const response = await proxy.handler(new Request(request, { signal: controller.signal }));
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
  const reader = response.body!.getReader();
  const events: { id: string; event: string }[] = [];
  let waiting: (() => void) | undefined;
  readEventBlocks(reader, (block) => {
    const field = (name: string) =>
      block
        .split('\n')
        .find((line) => line.startsWith(`${name}: `))
        ?.slice(name.length + 2);
    const event = field('event');
    if (event !== undefined) events.push({ id: field('id') ?? '', event });
    waiting?.();
  });
  return {
    events,
    /** Resolves when `count` events have come, or rejects after `timeoutMs`. */
    async received(count: number, timeoutMs = 15_000) {
      if (events.length >= count) return events;
      // Each event block wakes this up; the timer only bounds the wait.
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting = undefined;
          reject(new Error(`${events.length} of ${count} events after ${timeoutMs} ms`));
        }, timeoutMs);
        waiting = () => {
          if (events.length < count) return;
          clearTimeout(timer);
          waiting = undefined;
          resolve();
        };
      });
      return events;
    },
    close: () => {
      controller.abort();
      void reader.cancel().catch(() => {});
    },
  };
}

describe('notifications: webhook and event streams', () => {
  const sandbox = useSandbox();
  const proxies: BillingProxy[] = [];
  after(async () => {
    for (const proxy of proxies) await proxy.close();
  });

  function proxyWith(overrides: Partial<BillingProxyOptions> = {}): BillingProxy {
    const proxy = createBillingProxy(
      proxyOptions(sandbox, { notifications: { secret: SECRET, key: KEY }, ...overrides }),
    );
    proxies.push(proxy);
    return proxy;
  }

  it('accepts a signed notification and refuses a wrong, missing or other-key signature', async () => {
    const { logger, entries } = collectingLogger();
    const proxy = proxyWith({ logger });
    assert.equal((await deliver(proxy, notification('healthy'))).status, 200);
    const refusals = [
      await deliver(proxy, notification('healthy'), { secret: 'not-the-secret' }),
      await deliver(proxy, notification('healthy'), { signature: '' }),
      await deliver(proxy, notification('healthy'), { key: '' }),
      await deliver(proxy, notification('healthy'), { key: 'another-webhook' }),
      await deliver(proxy, notification('healthy'), { signature: 'x'.repeat(44) }),
    ];
    for (const refusal of refusals) {
      assert.equal(refusal.status, 403);
      assert.equal(refusal.body.code, 'invalid-signature');
    }
    assert.equal(entries.filter((entry) => entry.event === 'webhook-refused').length, 5);
  });

  it('answers the verification post with 200 and logs its code for the operator', async () => {
    const { logger, entries } = collectingLogger();
    const proxy = proxyWith({ logger });
    const { status, body } = await deliver(proxy, { Id: 'verify-1', VerificationCode: '7F3K-22' });
    assert.equal(status, 200);
    assert.equal(body.verification, true);
    const logged = entries.find((entry) => entry.event === 'webhook-verification');
    assert.match(String(logged?.message), /7F3K-22/);
  });

  it('tells only that customer’s open pages, each once per notification, duplicates dropped', async () => {
    const seen: BillingNotification[] = [];
    const signals = createMemorySignalBus();
    const bus = heardOn(signals);
    const proxy = proxyWith({
      notifications: { secret: SECRET, key: KEY, onNotification: (event) => void seen.push(event) },
      signals,
    });
    const healthy = await openEvents(proxy, 'healthy');
    const otherTab = await openEvents(proxy, 'healthy');
    const stranger = await openEvents(proxy, 'starter-plan');
    try {
      const first = notification('healthy', 'SubscriptionSuspendedPaymentDue');
      const started = Date.now();
      assert.equal((await deliver(proxy, first)).status, 200);
      await healthy.received(1);
      await otherTab.received(1);
      assert.ok(Date.now() - started < 1_000, 'within a second');
      // The same notification again (at-least-once delivery, or a replay): no new signal.
      const again = await deliver(proxy, first);
      assert.equal(again.status, 200);
      assert.equal(again.body.duplicate, true);
      // Later notifications, one per customer. Their work runs after the duplicate's would
      // have, so once the host's hook has seen both, a signal for the duplicate would be on the bus.
      assert.equal((await deliver(proxy, notification('healthy', 'InvoicePaid'))).status, 200);
      assert.equal((await deliver(proxy, notification('starter-plan', 'InvoicePaid'))).status, 200);
      await waitFor(() => seen.length >= 3, 'the host hook for the three notifications');
      assert.deepEqual(
        seen.map((event) => [event.type, event.customer]),
        [
          ['SubscriptionSuspendedPaymentDue', 'healthy'],
          ['InvoicePaid', 'healthy'],
          ['InvoicePaid', 'starter-plan'],
        ],
      );
      const healthyIds = bus.ids('healthy');
      assert.equal(healthyIds.length, 2, 'no signal for the duplicate');
      // Each page hears its customer's signals (the last one's id marks the end), and no other.
      await healthy.received(2);
      await stranger.received(1);
      assert.deepEqual(
        healthy.events.map(({ id }) => id),
        healthyIds,
      );
      assert.deepEqual(
        stranger.events.map(({ id }) => id),
        bus.ids('starter-plan'),
        'another customer hears only of its own',
      );
    } finally {
      healthy.close();
      otherTab.close();
      stranger.close();
    }
  });

  it('hands the work after the answer to the platform’s waitUntil when it has one', async () => {
    const seen: string[] = [];
    const proxy = proxyWith({
      notifications: {
        secret: SECRET,
        key: KEY,
        onNotification: (event) => void seen.push(event.id),
      },
    });
    const page = await openEvents(proxy, 'healthy');
    try {
      const body = notification('healthy', 'UsageChanged');
      const headers = {
        'content-type': 'application/json',
        'x-service-key': KEY,
        'x-service-signature': await webhookSignature(KEY, SECRET),
      };
      const post = () =>
        new Request(`${APP_ORIGIN}/billing/webhooks`, {
          method: 'POST',
          headers,
          body: JSON.stringify(body),
        });
      const handed: Promise<unknown>[] = [];
      const response = await proxy.handler(post(), { waitUntil: (work) => void handed.push(work) });
      assert.equal(response.status, 200);
      assert.equal(handed.length, 1, 'one piece of work handed to waitUntil');
      await handed[0];
      // Once the handed work is done, the page has been told and the host's hook has run.
      assert.deepEqual(seen, [String(body.Id)]);
      await page.received(1);
      // A second argument without a waitUntil function (Bun's server, Deno's info) is ignored.
      const other = { ...body, Id: `${String(body.Id)}-2` };
      const answered = await proxy.handler(
        new Request(`${APP_ORIGIN}/billing/webhooks`, {
          method: 'POST',
          headers,
          body: JSON.stringify(other),
        }),
        { remoteAddr: {} } as never,
      );
      assert.equal(answered.status, 200);
      await page.received(2);
    } finally {
      page.close();
    }
  });

  it('signals notifications delivered out of order, each once', async () => {
    const proxy = proxyWith();
    const stream = await openEvents(proxy, 'healthy');
    try {
      const older = { ...notification('healthy'), DateTrigger: '2026-01-01T00:00:00Z' };
      const newer = notification('healthy', 'InvoicePaid');
      assert.equal((await deliver(proxy, newer)).status, 200);
      assert.equal((await deliver(proxy, older)).status, 200);
      await stream.received(2);
      assert.ok(stream.events[0]!.id < stream.events[1]!.id, 'event ids keep their order');
    } finally {
      stream.close();
    }
  });

  it('tells a page that reconnects with an older Last-Event-ID what it missed, once', async () => {
    const signals = createMemorySignalBus();
    const bus = heardOn(signals);
    const proxy = proxyWith({ signals });
    const before = await openEvents(proxy, 'healthy');
    await deliver(proxy, notification('healthy'));
    const [first] = await before.received(1);
    before.close();
    await deliver(proxy, notification('healthy'));
    await waitFor(() => bus.heard.length === 2, 'the second signal on the bus');
    // Reconnecting with the first id: one event for what came meanwhile.
    const resumed = await openEvents(proxy, 'healthy', first!.id);
    const [missed] = await resumed.received(1);
    assert.ok(missed!.id > first!.id);
    // Reconnecting with the latest id: nothing missed, so the first event this page hears is
    // the one for a later notification (anything replayed would have come before it).
    const current = await openEvents(proxy, 'healthy', missed!.id);
    await deliver(proxy, notification('healthy'));
    const latest = await waitFor(() => bus.heard[2], 'the third signal on the bus');
    await current.received(1);
    assert.deepEqual(
      current.events.map(({ id }) => id),
      [latest.id],
    );
    resumed.close();
    current.close();
  });

  it('signals the customer’s pages after a purchase made through the proxy', async () => {
    const proxy = proxyWith();
    const stream = await openEvents(proxy, 'healthy');
    try {
      const priced = await proxy.handler(
        browserRequest('/pricing', { body: { feature: 'projects', increment: 1 } }),
      );
      const { AmountTotal } = (await priced.json()) as { AmountTotal: number };
      const bought = await proxy.handler(
        browserRequest('/usage', {
          body: {
            feature: 'projects',
            increment: 1,
            idempotencyKey: 'signal-after-purchase-1',
            confirmedAmountTotal: AmountTotal,
          },
        }),
      );
      assert.equal(bought.status, 200);
      await stream.received(1);
    } finally {
      stream.close();
    }
  });

  it('hands a purchase’s signal to the platform’s waitUntil when it has one', async () => {
    const proxy = proxyWith();
    const stream = await openEvents(proxy, 'healthy');
    try {
      const handed: Promise<unknown>[] = [];
      const bought = await proxy.handler(
        browserRequest('/usage', {
          body: {
            feature: 'projects',
            increment: 1,
            idempotencyKey: 'signal-wait-until-0001',
            confirmedAmountTotal: 0,
          },
        }),
        { waitUntil: (work) => void handed.push(work) },
      );
      assert.equal(bought.status, 200);
      assert.equal(handed.length, 1, 'the signal is handed to waitUntil');
      await handed[0];
      await stream.received(1);
    } finally {
      stream.close();
    }
  });

  it('lets a bus follow each stream’s customer while it is open, and ends a stream whose signals are lost', async () => {
    const memory = createMemorySignalBus();
    const follows: { customer: string; lastEventId: string | null; lost: (r: string) => void }[] =
      [];
    let stopped = 0;
    const logger = collectingLogger();
    const proxy = proxyWith({
      logger: logger.logger,
      signals: {
        ...memory,
        follow(customer, lastEventId, lost) {
          follows.push({ customer, lastEventId, lost });
          return () => void (stopped += 1);
        },
      },
    });
    const first = await openEvents(proxy, 'healthy', '000000000000001-000000');
    assert.deepEqual(
      follows.map(({ customer, lastEventId }) => [customer, lastEventId]),
      [['healthy', '000000000000001-000000']],
    );
    first.close();
    await waitFor(() => stopped > 0, 'the ended stream to stop following');
    assert.equal(stopped, 1, 'a stream that ends stops following');

    const response = await proxy.handler(browserRequest('/events', { customer: 'healthy' }));
    const blocks: string[] = [];
    let ended = false;
    const reader = response.body!.getReader();
    readEventBlocks(
      {
        read: () =>
          reader.read().then((result) => {
            if (result.done) ended = true;
            return result;
          }),
      } as ReadableStreamDefaultReader<Uint8Array>,
      (block) => void blocks.push(block),
    );
    await waitFor(() => follows.length === 2, 'the second stream to follow its customer');
    const before = Date.now();
    follows[1]!.lost('the test cut it');
    await waitFor(() => ended, 'the stream whose signals are lost to end');
    assert.equal(stopped, 2);
    // The page reconnects with an id from just before the loss as its Last-Event-ID.
    const resume = blocks.at(-1)?.match(/^id: (\d{15})-000000\nretry: (\d+)$/);
    assert.ok(resume, blocks.join(' | '));
    assert.ok(Number(resume[1]) < before && Number(resume[1]) > before - 5_000);
    assert.ok(
      logger.entries.some(
        (entry) => entry.event === 'signals-lost' && /the test cut it/.test(entry.message),
      ),
    );
  });

  it('needs a signed-in customer and an allowed origin for its event stream', async () => {
    const proxy = proxyWith();
    const anonymous = await proxy.handler(browserRequest('/events', { customer: null }));
    assert.equal(anonymous.status, 401);
    const foreign = await proxy.handler(
      browserRequest('/events', { origin: 'https://evil.example' }),
    );
    assert.equal(foreign.status, 403);
    const disabled = createBillingProxy(proxyOptions(sandbox, { events: false }));
    assert.equal((await disabled.handler(browserRequest('/events'))).status, 404);
    // Without notifications configured there is no webhook route.
    assert.equal((await deliver(disabled, notification('healthy'))).status, 404);
  });
});

describe('notifications over real HTTP (Node adapter)', () => {
  const sandbox = useSandbox();

  it('streams an event to a page when the service posts a notification', async () => {
    const proxy = createBillingProxy(
      proxyOptions(sandbox, { notifications: { secret: SECRET, key: KEY } }),
    );
    const server = createServer(toNodeHandler(proxy));
    const origin = await listen(server);
    const controller = new AbortController();
    try {
      const stream = await fetch(`${origin}/billing/events`, {
        headers: { cookie: 'session=healthy' },
        signal: controller.signal,
      });
      assert.equal(stream.status, 200);
      assert.equal(stream.headers.get('x-accel-buffering'), 'no');
      const reader = stream.body!.getReader();
      const decoder = new TextDecoder();
      let text = decoder.decode((await reader.read()).value);
      assert.match(text, /^retry: \d+/);
      const posted = await fetch(`${origin}/billing/webhooks`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-service-key': KEY,
          'x-service-signature': await webhookSignature(KEY, SECRET),
        },
        body: JSON.stringify(notification('healthy', 'SubscriptionRestarted')),
      });
      assert.equal(posted.status, 200);
      while (!text.includes('event: billing-changed'))
        text += decoder.decode((await reader.read()).value);
      assert.match(text, /id: \d{15}-\d{6}\nevent: billing-changed\ndata: \{\}/);
    } finally {
      controller.abort();
      await proxy.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('notifications across two proxy instances (real redis-server)', () => {
  const sandbox = useSandbox();
  let redis: { port: number; process: ChildProcess };
  const clients: Redis[] = [];
  const proxies: BillingProxy[] = [];

  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    for (const proxy of proxies) await proxy.close();
    await Promise.all(clients.map((client) => client.quit()));
    redis.process.kill('SIGTERM');
  });

  function client(): Redis {
    const made = new Redis({ host: '127.0.0.1', port: redis.port, lazyConnect: false });
    clients.push(made);
    return made;
  }

  function instance(
    signals: SignalBus = createRedisSignalBus({ publisher: client(), subscriber: client() }),
  ): BillingProxy {
    const proxy = createBillingProxy(
      proxyOptions(sandbox, {
        notifications: { secret: SECRET, key: KEY },
        idempotencyStore: createRedisIdempotencyStore(client()),
        signals,
      }),
    );
    proxies.push(proxy);
    return proxy;
  }

  it('reaches a page on instance B from a notification received by instance A, once', async () => {
    const a = instance();
    const signalsOfB = createRedisSignalBus({ publisher: client(), subscriber: client() });
    const bus = heardOn(signalsOfB);
    const b = instance(signalsOfB);
    const onB = await openEvents(b, 'healthy');
    const strangerOnB = await openEvents(b, 'starter-plan');
    try {
      const listening = client();
      await waitFor(async () => {
        const [, count] = (await listening.pubsub('NUMSUB', 'billing-elements:signals')) as [
          string,
          number,
        ];
        return count >= 2;
      }, 'both instances to subscribe to the signal channel');
      const sent = notification('healthy');
      const started = Date.now();
      assert.equal((await deliver(a, sent)).status, 200);
      await onB.received(1);
      assert.ok(Date.now() - started < 1_000, 'within a second');
      // The same notification delivered to B too (at least once): dropped there.
      assert.equal((await deliver(b, sent)).body.duplicate, true);
      // Later notifications through B, one per customer: they are published after a signal for
      // the duplicate would have been, on the same connection, so B hears them after it.
      assert.equal((await deliver(b, notification('healthy', 'InvoicePaid'))).status, 200);
      assert.equal((await deliver(b, notification('starter-plan', 'InvoicePaid'))).status, 200);
      await waitFor(() => bus.ids('starter-plan').length > 0, 'the last signal to reach B');
      const healthyIds = bus.ids('healthy');
      assert.equal(healthyIds.length, 2, 'no signal for the duplicate');
      await onB.received(2);
      await strangerOnB.received(1);
      assert.deepEqual(
        onB.events.map(({ id }) => id),
        healthyIds,
      );
      assert.deepEqual(
        strangerOnB.events.map(({ id }) => id),
        bus.ids('starter-plan'),
      );
    } finally {
      onB.close();
      strangerOnB.close();
    }
  });
});
