import { expect } from '@open-wc/testing';
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { LatestTask } from '../../src/elements/shared/latest-task.js';
import {
  PENDING_PURCHASE_MAX_AGE_MS,
  createPendingPurchase,
  newIdempotencyKey,
  readPendingPurchase,
  settlePendingPurchase,
} from '../../src/elements/buy-feature/pending-purchase.js';
import { IDEMPOTENCY_KEY_PATTERN } from '../../src/contract/proxy-api.js';
import { nextTurn, sleep, waitFor } from '../time.js';

// The two pieces of <buy-feature> whose timing and storage rules are easiest to pin down on
// their own: the latest-only price task and the keeper of pending purchase keys.

class Host implements ReactiveControllerHost {
  updates = 0;
  addController(_controller: ReactiveController): void {}
  removeController(_controller: ReactiveController): void {}
  requestUpdate(): void {
    this.updates += 1;
  }
  get updateComplete(): Promise<boolean> {
    return Promise.resolve(true);
  }
}

interface Call {
  args: number;
  /** When the task was called (performance.now()). */
  at: number;
  signal: AbortSignal;
  resolve: (value: string) => void;
  reject: (error: unknown) => void;
}

function recordingTask() {
  const calls: Call[] = [];
  const task = (args: number, signal: AbortSignal) =>
    new Promise<string>((resolve, reject) => {
      calls.push({ args, at: performance.now(), signal, resolve, reject });
    });
  return { calls, task };
}

describe('LatestTask (live price preview)', () => {
  it('waits for the debounce delay and runs only for the last arguments', async () => {
    const { calls, task } = recordingTask();
    const delayMs = 40;
    const latest = new LatestTask(new Host(), task, delayMs);
    const started = performance.now();
    latest.run(1);
    latest.run(2);
    latest.run(3);
    expect(latest.state).to.deep.equal({ status: 'pending', args: 3 });
    expect(calls).to.have.length(0);
    // When the task ran is recorded by the task itself, not sampled after a sleep: a loaded
    // machine can stretch any sleep past the delay.
    await waitFor(() => calls.length > 0, 'the debounced run');
    // A timer never fires early; 1 ms for the clock's coarsening.
    expect(calls[0]!.at - started).to.be.at.least(delayMs - 1);
    // Time is the subject: nothing may happen during the debounce window after the first run
    // (no second run for an older argument), so we wait the window out.
    await sleep(delayMs + 20);
    expect(calls.map((call) => call.args)).to.deep.equal([3]);
    calls[0]!.resolve('price of 3');
    await latest.settled();
    expect(latest.state).to.deep.equal({ status: 'complete', args: 3, value: 'price of 3' });
  });

  it('aborts the run in flight and never shows an older answer, even one arriving last', async () => {
    const { calls, task } = recordingTask();
    const latest = new LatestTask(new Host(), task, 0);
    latest.run(1, true);
    latest.run(2, true);
    expect(calls[0]!.signal.aborted).to.equal(true);
    expect(calls[1]!.signal.aborted).to.equal(false);
    calls[1]!.resolve('price of 2');
    expect(await latest.settled()).to.deep.equal({
      status: 'complete',
      args: 2,
      value: 'price of 2',
    });
    // The older answer comes last; nothing marks its arrival but the promise jobs it queues.
    calls[0]!.resolve('price of 1');
    await nextTurn();
    expect(latest.state).to.deep.equal({ status: 'complete', args: 2, value: 'price of 2' });
  });

  it('keeps the shown result while refreshing it (keepShown), and only for the same arguments', async () => {
    const { calls, task } = recordingTask();
    const latest = new LatestTask(new Host(), task, 0);
    latest.run(3, true);
    calls[0]!.resolve('old price of 3');
    await latest.settled();
    latest.run(3, true, { keepShown: true });
    expect(latest.state).to.deep.equal({ status: 'complete', args: 3, value: 'old price of 3' });
    calls[1]!.resolve('new price of 3');
    await waitFor(
      () => latest.state.status === 'complete' && latest.state.value === 'new price of 3',
      'the refreshed price',
    );
    expect(latest.state).to.deep.equal({ status: 'complete', args: 3, value: 'new price of 3' });
    // A run for the same arguments under way answers the refresh: it is not restarted.
    latest.run(3, true);
    latest.run(3, true, { keepShown: true });
    expect(calls[2]!.signal.aborted).to.equal(false);
    expect(calls).to.have.length(3);
    // Other arguments are a new question: the old answer is not theirs.
    latest.run(4, true, { keepShown: true });
    expect(latest.state).to.deep.equal({ status: 'pending', args: 4 });
  });

  it('settled() starts a scheduled run at once and resolves with its outcome', async () => {
    const { calls, task } = recordingTask();
    const latest = new LatestTask(new Host(), task, 10_000);
    latest.run(7);
    const settled = latest.settled();
    expect(calls.map((call) => call.args)).to.deep.equal([7]);
    calls[0]!.reject(new Error('refused'));
    const state = await settled;
    expect(state.status).to.equal('error');
    expect(state.status === 'error' && (state.error as Error).message).to.equal('refused');
  });

  it('settled() follows a newer run started while it waits', async () => {
    const { calls, task } = recordingTask();
    const latest = new LatestTask(new Host(), task, 0);
    latest.run(1, true);
    const settled = latest.settled();
    latest.run(2, true);
    calls[0]!.resolve('price of 1');
    // The first run's answer is handled before the second comes: settled() must wait on.
    await nextTurn();
    calls[1]!.resolve('price of 2');
    const state = await settled;
    expect(state).to.deep.equal({ status: 'complete', args: 2, value: 'price of 2' });
  });

  it('drops everything when the host disconnects', async () => {
    const { calls, task } = recordingTask();
    const latest = new LatestTask(new Host(), task, 0);
    latest.run(1, true);
    latest.hostDisconnected();
    expect(calls[0]!.signal.aborted).to.equal(true);
    calls[0]!.resolve('late');
    // Nothing marks the dropped answer's arrival but the promise jobs it queues.
    await nextTurn();
    expect(latest.state).to.deep.equal({ status: 'idle' });
  });

  it('keeps a settled result when the host disconnects, dropping the refresh under way', async () => {
    const { calls, task } = recordingTask();
    const latest = new LatestTask(new Host(), task, 0);
    latest.run(1, true);
    calls[0]!.resolve('price of 1');
    await latest.settled();
    latest.run(1, true, { keepShown: true });
    latest.hostDisconnected();
    expect(calls[1]!.signal.aborted).to.equal(true);
    calls[1]!.resolve('late');
    // Nothing marks the dropped answer's arrival but the promise jobs it queues.
    await nextTurn();
    // An element moved in the page shows what it had until it runs again.
    expect(latest.state).to.deep.equal({ status: 'complete', args: 1, value: 'price of 1' });
    expect(await latest.settled()).to.equal(latest.state);
  });

  it('turns a task that throws synchronously into an error state', async () => {
    const latest = new LatestTask<number, string>(
      new Host(),
      () => {
        throw new Error('sync');
      },
      0,
    );
    latest.run(1, true);
    const state = await latest.settled();
    expect(state.status).to.equal('error');
  });
});

describe('pending purchases (idempotency keys)', () => {
  beforeEach(() => sessionStorage.clear());

  it('creates one valid key per confirmation and keeps it in sessionStorage until settled', () => {
    const pending = createPendingPurchase('/billing', 'seats', 3, 1234, 'healthy');
    expect(pending.idempotencyKey).to.match(IDEMPOTENCY_KEY_PATTERN);
    // Another read (a reloaded page) gets the very same request back.
    const again = readPendingPurchase('/billing', 'seats');
    expect(again).to.deep.equal(pending);
    settlePendingPurchase('/billing', pending);
    expect(readPendingPurchase('/billing', 'seats')).to.equal(undefined);
  });

  it('keeps purchases apart per endpoint and feature', () => {
    const seats = createPendingPurchase('/billing', 'seats', 1, 0);
    expect(readPendingPurchase('/billing', 'projects')).to.equal(undefined);
    expect(readPendingPurchase('https://other.example/billing', 'seats')).to.equal(undefined);
    // A relative endpoint and its absolute form are the same proxy.
    const absolute = new URL('/billing', document.baseURI).href;
    expect(readPendingPurchase(absolute, 'seats')?.idempotencyKey).to.equal(seats.idempotencyKey);
  });

  it('does not forget a newer confirmation when an older outcome arrives', () => {
    const older = createPendingPurchase('/billing', 'seats', 1, 0);
    const newer = createPendingPurchase('/billing', 'seats', 2, 500);
    settlePendingPurchase('/billing', older);
    expect(readPendingPurchase('/billing', 'seats')?.idempotencyKey).to.equal(newer.idempotencyKey);
  });

  it('drops tampered and expired entries instead of re-sending them', () => {
    const pending = createPendingPurchase('/billing', 'seats', 1, 0);
    const storageKey = Object.keys(sessionStorage).find((key) => key.includes('pending-purchase'))!;
    for (const tampered of [
      { ...pending, idempotencyKey: 'short' },
      { ...pending, feature: 'projects' },
      { ...pending, increment: 1.5 },
      { ...pending, confirmedAmountTotal: -1 },
      { ...pending, confirmedAt: 'yesterday' },
      { ...pending, customer: null },
      null,
    ]) {
      sessionStorage.setItem(storageKey, JSON.stringify(tampered));
      expect(readPendingPurchase('/billing', 'seats')).to.equal(undefined);
      expect(sessionStorage.getItem(storageKey)).to.equal(null);
    }
    sessionStorage.setItem(storageKey, '{not json');
    expect(readPendingPurchase('/billing', 'seats')).to.equal(undefined);
    expect(sessionStorage.getItem(storageKey)).to.equal(null);
    const old = createPendingPurchase('/billing', 'seats', 1, 0);
    expect(
      readPendingPurchase('/billing', 'seats', old.confirmedAt + PENDING_PURCHASE_MAX_AGE_MS + 1),
    ).to.equal(undefined);
  });

  it('makes keys that are unique and URL-safe', () => {
    const keys = new Set(Array.from({ length: 200 }, () => newIdempotencyKey()));
    expect(keys.size).to.equal(200);
    for (const key of keys) expect(key).to.match(IDEMPOTENCY_KEY_PATTERN);
  });
});
