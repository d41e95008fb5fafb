// Closing the sandbox stops its notifications: nothing is sent afterwards, an attempt under way
// is abandoned at once, and no timer is left to keep a test process alive. In a file of its own
// so that the count of the process's timers is not disturbed by other tests' receivers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startTestSandbox } from './helpers.js';
import { eventsAnswer, FAST, SECRET, sleep, startReceiver, usage } from './webhook-helpers.js';

/** Timers that keep the process alive now. */
const liveTimers = () =>
  process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

describe('notifications: shutdown', () => {
  it('close cancels pending retries: nothing is sent afterwards and no timer is left', async () => {
    const timersBefore = liveTimers();
    const hook = await startReceiver(eventsAnswer(() => 500));
    const t = await startTestSandbox({
      webhooks: [{ url: hook.url, secret: SECRET }],
      webhookDelivery: { ...FAST, initialDelayMs: 200 },
    });
    try {
      await usage(t);
      await hook.waitFor(2);
      await t.close();
      assert.equal(liveTimers(), timersBefore, 'no retry timer left');
      // Time is the subject: no retry may come in the window where one was due (200 ms at
      // most), so we wait the window out. (The sandbox's retry timers run beside real HTTP
      // servers and clients, which a fake clock would stop too.)
      await sleep(400);
      assert.equal(hook.received.length, 2, 'no retry after close');
    } finally {
      await hook.close();
    }
  });

  it('close abandons an attempt under way at once', async () => {
    const timersBefore = liveTimers();
    const hook = await startReceiver(eventsAnswer(() => 200, 5_000));
    const t = await startTestSandbox({
      webhooks: [{ url: hook.url, secret: SECRET }],
      webhookDelivery: { ...FAST, timeoutMs: 10_000 },
    });
    await usage(t);
    await hook.waitFor(2);
    const started = Date.now();
    await t.close();
    const elapsed = Date.now() - started;
    assert.ok(elapsed < 1_000, `close took ${elapsed} ms with an attempt under way`);
    await hook.close();
    assert.equal(liveTimers(), timersBefore, 'no timeout timer left');
  });
});
