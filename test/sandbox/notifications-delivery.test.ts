// The sandbox's notifications on the wire: verification posts, signatures and header names,
// retries with backoff (a 3xx is a failure, redirects are not followed), giving up, timeouts,
// an API answer never delayed, removed targets and the bounded queue (shutdown has its own file).
// Real receivers over real HTTP.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  NotificationEnvelopeSchema,
  NotificationVerificationSchema,
} from '../../src/contract/notifications.js';
import {
  deliveries,
  deliveryOf,
  eventsAnswer,
  expectedSignature,
  FAST,
  SECRET,
  sleep,
  startReceiver,
  usage,
  webhookTestKit,
} from './webhook-helpers.js';

const { receiver, sandboxWith } = webhookTestKit();

describe('notifications: targets and verification', () => {
  it('posts a signed verification code, without TypeTrigger, to every target added', async () => {
    const first = await receiver();
    const t = await sandboxWith([{ url: first.url, secret: SECRET, key: 'wh_live_1' }]);
    const [verification] = await first.waitFor(1);
    assert.equal(verification?.path, '/hooks/billing');
    assert.equal(verification?.headers['x-service-key'], 'wh_live_1');
    assert.equal(
      verification?.headers['x-service-signature'],
      expectedSignature('wh_live_1', SECRET),
    );
    assert.match(String(verification?.headers['content-type']), /^application\/json/);
    const body = NotificationVerificationSchema.parse(verification?.body);
    assert.equal('TypeTrigger' in verification!.body, false, 'no TypeTrigger');
    assert.equal(body.DateTrigger, '2026-11-16T00:00:00.000Z', 'on the sandbox clock');

    const listed = (await t.control('GET', '/webhooks')).body;
    assert.equal(listed.targets.length, 1);
    assert.equal(listed.targets[0].verificationCode, body.VerificationCode);
    assert.equal(listed.targets[0].secret, undefined, 'the secret is never shown');
    assert.equal(listed.delivery.maxAttempts, 4);
    const log = await deliveries(t);
    assert.equal(log[0].kind, 'verification');
    await deliveryOf(t, body.Id, (record) => record.deliveries[0].state === 'delivered');
    assert.equal((await t.control('GET', '/webhooks')).body.targets[0].verified, true);

    // A target added through the control API gets its own verification, and only it does.
    const second = await receiver();
    const added = await t.control('POST', '/webhooks', { url: second.url, secret: 'other' });
    assert.equal(added.status, 201, added.text);
    assert.equal(added.body.key, 'sandbox-webhook-2', 'the default key names the target');
    const [secondVerification] = await second.waitFor(1);
    assert.equal(secondVerification?.body.VerificationCode, added.body.verificationCode);
    assert.equal(
      secondVerification?.headers['x-service-signature'],
      expectedSignature('sandbox-webhook-2', 'other'),
    );
    // A change is notified to both targets: a second verification of the first would have
    // been sent before it.
    await usage(t);
    await first.waitFor(2);
    assert.equal(first.received[1]?.body.VerificationCode, undefined);
    assert.equal(
      first.received.filter((entry) => entry.body?.VerificationCode !== undefined).length,
      1,
      'the first target was not verified again',
    );
  });

  it('signs every event with the same key, under the header names configured', async () => {
    const hook = await receiver();
    const t = await sandboxWith([
      {
        url: hook.url,
        secret: SECRET,
        key: 'wh_custom',
        keyHeader: 'X-Billing-Key',
        signatureHeader: 'X-Billing-Signature',
      },
    ]);
    assert.equal((await usage(t)).status, 200);
    assert.equal((await usage(t)).status, 200);
    const received = await hook.waitFor(3);
    for (const entry of received) {
      assert.equal(entry.headers['x-billing-key'], 'wh_custom');
      assert.equal(entry.headers['x-billing-signature'], expectedSignature('wh_custom', SECRET));
      assert.equal(entry.headers['x-service-key'], undefined);
    }
    const events = hook.events().map((body) => NotificationEnvelopeSchema.parse(body));
    assert.deepEqual(
      events.map((event) => event.TypeTrigger),
      ['SubscriptionFeaturesUpdated', 'SubscriptionFeaturesUpdated'],
    );
    assert.notEqual(events[0]?.Id, events[1]?.Id, 'each notification has its own Id');
  });
});

describe('notifications: retries', () => {
  it('retries a 500 and a 302 with growing waits, without following the redirect', async () => {
    const elsewhere = await receiver();
    const statuses = [500, 302, 200];
    const hook = await receiver((index, received) => {
      if (received.body?.TypeTrigger === undefined) return { status: 200 };
      const status = statuses.shift() ?? 200;
      return status === 302 ? { status, headers: { location: elsewhere.url } } : { status };
    });
    const t = await sandboxWith([{ url: hook.url, secret: SECRET }]);
    await usage(t);
    await hook.waitFor(4);
    const attempts = hook.received.slice(1);
    assert.equal(new Set(attempts.map((entry) => entry.body.Id)).size, 1, 'one notification');
    const [first, second, third] = attempts.map((entry) => entry.at) as [number, number, number];
    // 40 ms then 80 ms, each with jitter of 50 to 100 %.
    assert.ok(second - first >= 20, `first wait ${second - first} ms`);
    assert.ok(third - second >= 40, `second wait ${third - second} ms`);

    const record = await deliveryOf(
      t,
      attempts[0]?.body.Id,
      (candidate) => candidate.deliveries[0].state === 'delivered',
    );
    const tried = record.deliveries[0].attempts;
    assert.deepEqual(
      tried.map((attempt: { status: number }) => attempt.status),
      [500, 302, 200],
    );
    assert.match(tried[0].error, /^answered 500/);
    assert.match(tried[1].error, /^answered 302/);
    assert.equal(tried[2].error, null);
    assert.equal(elsewhere.received.length, 0, 'a redirect is never followed');
  });

  it('gives up after maxAttempts on network errors and logs it; a slow answer times out', async () => {
    const gone = await startReceiver();
    const closedUrl = gone.url;
    await gone.close();
    const t = await sandboxWith([{ url: closedUrl, secret: SECRET }]);
    const [verification] = await deliveries(t);
    const record = await deliveryOf(
      t,
      verification.Id,
      (candidate) => candidate.deliveries[0].state === 'failed',
    );
    const tried = record.deliveries[0].attempts;
    assert.equal(tried.length, 4);
    for (const attempt of tried) {
      assert.equal(attempt.status, null);
      assert.match(attempt.error, /ECONNREFUSED/);
    }
    assert.ok(t.logs.some((line) => /gave up on notification .* after 4 attempts/.test(line)));

    const slow = await receiver(eventsAnswer(() => 200, 1_000));
    const timing = await sandboxWith([{ url: slow.url, secret: SECRET }], {
      ...FAST,
      maxAttempts: 1,
      timeoutMs: 150,
    });
    await usage(timing);
    const [event] = await deliveries(timing, '?type=SubscriptionFeaturesUpdated');
    const timedOut = await deliveryOf(
      timing,
      event.Id,
      (candidate) => candidate.deliveries[0].state === 'failed',
    );
    assert.match(timedOut.deliveries[0].attempts[0].error, /no answer within 150 ms/);
  });

  it('never delays the API answer: a receiver that takes 1.5 s to answer', async () => {
    const slow = await receiver(eventsAnswer(() => 200, 1_500));
    const t = await sandboxWith([{ url: slow.url, secret: SECRET }]);
    await slow.waitFor(1);
    const started = Date.now();
    assert.equal((await usage(t)).status, 200);
    const elapsed = Date.now() - started;
    assert.ok(elapsed < 750, `the API answered in ${elapsed} ms`);
    const [event] = await deliveries(t, '?type=SubscriptionFeaturesUpdated');
    assert.notEqual(event.deliveries[0].state, 'delivered', 'still under way');
    const done = await deliveryOf(t, event.Id, (r) => r.deliveries[0].state === 'delivered');
    assert.ok(done.deliveries[0].attempts[0].durationMs >= 1_400);
  });
});

describe('notifications: bounds and shutdown', () => {
  it('removing a target cancels its pending deliveries', async () => {
    const hook = await receiver(eventsAnswer(() => 500));
    const t = await sandboxWith([{ url: hook.url, secret: SECRET }], {
      ...FAST,
      initialDelayMs: 300,
    });
    await usage(t);
    await hook.waitFor(2);
    const [event] = await deliveries(t, '?type=SubscriptionFeaturesUpdated');
    await deliveryOf(t, event.Id, (r) => r.deliveries[0].state === 'retrying');
    const removed = await t.control('DELETE', '/webhooks/1');
    assert.equal(removed.status, 200);
    assert.deepEqual(removed.body.targets, []);
    assert.equal(
      (await t.control('GET', `/webhooks/deliveries/${event.Id}`)).body.deliveries[0].state,
      'cancelled',
    );
    // Time is the subject: no retry may come in the window where one was due (300 ms at most),
    // so we wait the window out. (The sandbox's retry timers run beside real HTTP servers and
    // clients, which a fake clock would stop too.)
    await sleep(500);
    assert.equal(hook.received.length, 2, 'no retry after the removal');
    await usage(t);
    assert.equal(
      (await deliveries(t, '?type=SubscriptionFeaturesUpdated')).length,
      1,
      'no target, no notification',
    );
    const replay = await t.control('POST', `/webhooks/deliveries/${event.Id}/replay`);
    assert.equal(replay.status, 409);
  });

  it('drops deliveries beyond maxQueue and says so in the log', async () => {
    const slow = await receiver(() => ({ status: 200, delayMs: 500 }));
    const t = await sandboxWith([{ url: slow.url, secret: SECRET }], { ...FAST, maxQueue: 2 });
    await usage(t, 1);
    await usage(t, 2);
    const states = (await deliveries(t)).map((record) => record.deliveries[0].state);
    assert.equal(states.length, 3);
    assert.equal(states[2], 'dropped');
    assert.notEqual(states[1], 'dropped');
    assert.ok(t.logs.some((line) => /webhook queue full \(2 deliveries\)/.test(line)));
  });
});
