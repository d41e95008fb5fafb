// The control API of the notifications and their configuration: bad targets and modes refused,
// the delivery log, replays, the duplicate and out-of-order test modes, fixture and option
// validation, the state file, and the command line's --webhook-url.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { defaultFixtures, FixtureError, parseFixtures } from '../../src/sandbox/index.js';
import { startTestSandbox, usageBody, quantityOf } from './helpers.js';
import { waitFor } from '../time.js';
import {
  deliveries,
  deliveryOf,
  expectedSignature,
  SECRET,
  usage,
  webhookTestKit,
} from './webhook-helpers.js';

const { receiver, sandboxWith, track } = webhookTestKit();

describe('notifications: control API input', () => {
  it('refuses bad targets and modes with the field named, and changes nothing', async () => {
    const hook = await receiver();
    const t = await sandboxWith([{ url: hook.url, secret: SECRET }]);
    const refusals: [unknown, string][] = [
      [{ url: 'ftp://example.test/hook', secret: SECRET }, 'url'],
      [{ url: 'http://user:pw@127.0.0.1:9/hook', secret: SECRET }, 'url'],
      [{ url: hook.url }, 'secret'],
      [{ url: hook.url, secret: ' padded ' }, 'secret'],
      [{ url: hook.url, secret: SECRET, key: 'two words' }, 'key'],
      [{ url: hook.url, secret: SECRET, keyHeader: 'bad header' }, 'keyHeader'],
      [{ url: hook.url, secret: SECRET, colour: 'red' }, ''],
    ];
    for (const [body, field] of refusals) {
      const answer = await t.control('POST', '/webhooks', body);
      assert.equal(answer.status, 422, JSON.stringify(body));
      assert.equal(answer.body[0].Code, 'Error.Api.Validation');
      if (field) assert.equal(answer.body[0].Target, field, JSON.stringify(body));
    }
    assert.equal((await t.control('GET', '/webhooks')).body.targets.length, 1);
    assert.equal((await t.control('DELETE', '/webhooks/99')).status, 404);
    for (const mode of [{}, { duplicate: -1 }, { holdAndReverse: 1.5 }, { reverse: true }]) {
      assert.equal((await t.control('POST', '/webhooks/mode', mode)).status, 422);
    }
    assert.deepEqual((await t.control('GET', '/webhooks/mode')).body, {
      duplicate: 0,
      holdAndReverse: 0,
      held: 0,
    });
    const missing = await t.control('GET', '/webhooks/deliveries/no-such-id');
    assert.equal(missing.status, 404);
    assert.equal((await t.control('POST', '/webhooks/deliveries/no-such-id/replay')).status, 404);
  });
});

describe('notifications: log, replay and test modes', () => {
  it('logs each notification and replays it with the same Id and body', async () => {
    const hook = await receiver();
    const t = await sandboxWith([{ url: hook.url, secret: SECRET }]);
    await usage(t, 2);
    await hook.waitFor(2);
    const log = await deliveries(t, '?customer=healthy');
    assert.equal(log.length, 1);
    const [record] = log;
    assert.equal(record.kind, 'event');
    assert.equal(record.TypeTrigger, 'SubscriptionFeaturesUpdated');
    assert.equal(record.ReferenceCustomer, 'healthy');
    assert.deepEqual(record.body, hook.events()[0], 'the log holds the body as sent');
    const [delivery] = record.deliveries;
    assert.equal(delivery.target, '1');
    assert.equal(delivery.url, hook.url);
    assert.equal(delivery.reason, 'first');
    assert.equal(delivery.attempts[0].status, 200);
    assert.ok(Date.parse(delivery.attempts[0].at) > 0);
    assert.equal((await deliveries(t, '?customer=nobody')).length, 0);

    const replayed = await t.control('POST', `/webhooks/deliveries/${record.Id}/replay`);
    assert.equal(replayed.status, 202, replayed.text);
    await hook.waitFor(3);
    assert.deepEqual(hook.events()[1], hook.events()[0], 'same Id, same body');
    const toTarget = await t.control('POST', `/webhooks/deliveries/${record.Id}/replay`, {
      target: '1',
    });
    assert.equal(toTarget.status, 202);
    await hook.waitFor(4);
    const after = await deliveryOf(
      t,
      record.Id,
      (candidate) =>
        candidate.deliveries.length === 3 &&
        candidate.deliveries.every((d: { state: string }) => d.state === 'delivered'),
    );
    assert.deepEqual(
      after.deliveries.map((d: { reason: string }) => d.reason),
      ['first', 'replay', 'replay'],
    );
    const unknownTarget = await t.control('POST', `/webhooks/deliveries/${record.Id}/replay`, {
      target: '7',
    });
    assert.equal(unknownTarget.status, 422);
    assert.equal(unknownTarget.body[0].Target, 'target');

    assert.equal((await t.control('DELETE', '/webhooks/deliveries')).status, 200);
    assert.deepEqual(await deliveries(t), []);
  });

  it('duplicate: the next N notifications are delivered twice', async () => {
    const hook = await receiver();
    const t = await sandboxWith([{ url: hook.url, secret: SECRET }]);
    const mode = await t.control('POST', '/webhooks/mode', { duplicate: 1 });
    assert.deepEqual(mode.body, { duplicate: 1, holdAndReverse: 0, held: 0 });
    await usage(t, 1);
    await usage(t, 2);
    await hook.waitFor(4);
    // A third notification, delivered once: a second copy of the second would come before it.
    await usage(t, 3);
    await hook.waitFor(5);
    const ids = hook.events().map((body) => body.Id);
    assert.equal(ids.length, 4);
    assert.equal(ids[0], ids[1], 'the first one twice');
    assert.notEqual(ids[2], ids[0]);
    assert.notEqual(ids[3], ids[2], 'the second one once');
    assert.notEqual(ids[3], ids[0]);
    const [first] = await deliveries(t, '?type=SubscriptionFeaturesUpdated');
    assert.deepEqual(
      first.deliveries.map((d: { reason: string }) => d.reason),
      ['first', 'duplicate'],
    );
    assert.equal((await t.control('GET', '/webhooks/mode')).body.duplicate, 0);
  });

  it('holdAndReverse: the next N notifications are held, then delivered newest first', async () => {
    const hook = await receiver();
    const t = await sandboxWith([{ url: hook.url, secret: SECRET }]);
    await hook.waitFor(1);
    await t.control('POST', '/webhooks/mode', { holdAndReverse: 3 });
    await usage(t, 1);
    await usage(t, 2);
    await waitFor(
      async () => (await t.control('GET', '/webhooks/mode')).body.held === 2,
      'both notifications to be held',
    );
    assert.equal(hook.events().length, 0, 'held');
    assert.equal((await t.control('GET', '/webhooks/mode')).body.held, 2);
    const [held] = await deliveries(t, '?type=SubscriptionFeaturesUpdated');
    assert.equal(held.deliveries[0].state, 'held');
    await usage(t, 3);
    await hook.waitFor(4);
    const logged = (await deliveries(t, '?type=SubscriptionFeaturesUpdated')).map((r) => r.Id);
    assert.deepEqual(
      hook.events().map((body) => body.Id),
      [...logged].reverse(),
      'newest first',
    );
    assert.deepEqual((await t.control('GET', '/webhooks/mode')).body, {
      duplicate: 0,
      holdAndReverse: 0,
      held: 0,
    });

    // Ending the mode early releases what it held.
    await t.control('POST', '/webhooks/mode', { holdAndReverse: 5 });
    await usage(t, 1);
    await waitFor(
      async () => (await t.control('GET', '/webhooks/mode')).body.held === 1,
      'the notification to be held',
    );
    assert.equal(hook.events().length, 3);
    assert.equal((await t.control('DELETE', '/webhooks/mode')).body.held, 0);
    await hook.waitFor(5);
  });
});

describe('notifications: configuration', () => {
  it('takes targets from the fixtures, validated, and keeps the state file across them', async () => {
    const bad = { ...defaultFixtures(), webhooks: [{ url: 'mailto:x@example.test', secret: '' }] };
    assert.throws(
      () => parseFixtures(bad),
      (error: unknown) =>
        error instanceof FixtureError &&
        error.issues.some((issue) => issue.path === 'webhooks[0].url') &&
        error.issues.some((issue) => issue.path === 'webhooks[0].secret'),
    );
    await assert.rejects(
      startTestSandbox({ webhooks: [{ url: 'not a url', secret: SECRET }] }),
      /startSandbox: webhooks\.0\.url must be an http/,
    );
    await assert.rejects(
      startTestSandbox({ webhookDelivery: { maxAttempts: 0 } }),
      /startSandbox: webhookDelivery\.maxAttempts/,
    );

    const dir = await mkdtemp(join(tmpdir(), 'sandbox-webhooks-'));
    try {
      const stateFile = join(dir, 'state.json');
      const plain = await startTestSandbox({ stateFile });
      await plain.api('POST', '/v1/Usage', usageBody('healthy', 'seats', { Increment: 4 }));
      await plain.close();
      const hook = await receiver();
      const fixtures = { ...defaultFixtures(), webhooks: [{ url: hook.url, secret: SECRET }] };
      const resumed = await startTestSandbox({ stateFile, fixtures });
      track(resumed);
      await hook.waitFor(1);
      assert.equal(
        await quantityOf(resumed, 'healthy', 'seats'),
        3 + 4,
        'adding a webhook keeps the state',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('notifications: command line', () => {
  const root = new URL('../..', import.meta.url).pathname;

  /** Runs the CLI until `stopWhen` says so (then SIGTERM), or until it exits by itself. */
  function run(args: string[], stopWhen?: (stdout: string) => boolean) {
    return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/cli.ts', ...args], {
        cwd: root,
      });
      let stdout = '';
      let stderr = '';
      const check = () => {
        if (stopWhen?.(stdout)) child.kill('SIGTERM');
      };
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        check();
      });
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const poll = setInterval(check, 20);
      child.on('close', (code) => {
        clearInterval(poll);
        resolve({ code, stdout, stderr });
      });
    });
  }

  it('--webhook-url posts to that URL, signed with --webhook-secret, and prints the target', async () => {
    const hook = await receiver();
    const { stdout } = await run(
      ['--port', '0', '--webhook-url', hook.url, '--webhook-secret', 'cli-secret'],
      (out) => /webhook\s/.test(out) && hook.received.length > 0,
    );
    assert.match(
      stdout,
      new RegExp(`webhook\\s+${hook.url}\\s+key sandbox-webhook-1\\s+secret cli-secret`),
    );
    const [verification] = hook.received;
    assert.equal(
      verification?.headers['x-service-signature'],
      expectedSignature('sandbox-webhook-1', 'cli-secret'),
    );

    const defaults = await run(['--port', '0', '--webhook-url', hook.url], (out) =>
      /webhook\s/.test(out),
    );
    assert.match(defaults.stdout, /secret sandbox-webhook-secret/);

    const bad = await run(['--webhook-url', 'file:///etc/passwd']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--webhook-url must be an http:\/\/ or https:\/\/ URL/);
    const alone = await run(['--webhook-secret', 'x']);
    assert.equal(alone.code, 2);
    assert.match(alone.stderr, /need --webhook-url/);
  });
});

describe('sandbox reset', () => {
  it('notifies no target, and tells in-process listeners', async () => {
    const hook = await receiver();
    const t = await sandboxWith([{ url: hook.url, secret: SECRET }]);
    // A change first, so that the reset has something to undo: it is notified.
    const change = await t.api(
      'POST',
      '/v1/Usage',
      usageBody('healthy', 'seats', { Increment: 1 }),
    );
    assert.equal(change.status, 200);
    await eventuallyEvents(hook, 1);
    const before = hook.events().length;
    let resets = 0;
    const stop = t.sandbox.onReset(() => (resets += 1));
    assert.equal((await t.control('POST', '/reset')).status, 200);
    assert.equal(resets, 1);
    stop();
    await t.control('POST', '/reset');
    assert.equal(resets, 1, 'a removed listener is not called');
    // A real change after the resets: its notification is the next one the hook hears.
    const known = new Set((await deliveries(t)).map((record) => record.Id));
    assert.equal(
      (await t.api('POST', '/v1/Usage', usageBody('healthy', 'seats', { Increment: 1 }))).status,
      200,
    );
    const next = await waitFor(
      async () => (await deliveries(t)).find((record) => !known.has(record.Id)),
      'the notification of the change after the resets',
    );
    await waitFor(
      () => hook.events().some((body) => body.Id === next.Id),
      'the notification of the change after the resets to reach the hook',
    );
    assert.equal(
      hook.events().length,
      before + 1,
      'a reset is no change of the service: nothing sent',
    );
  });
});

async function eventuallyEvents(hook: { events(): unknown[] }, count: number): Promise<void> {
  await waitFor(
    () => hook.events().length >= count,
    `${count} events (${hook.events().length} so far)`,
  );
}
