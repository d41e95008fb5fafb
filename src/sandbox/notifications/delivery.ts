import type {
  DeliveryReason,
  DeliveryRecord,
  FinalDeliveryState,
  NotificationRecord,
  Target,
} from './records.js';
import { retryDelayMs, webhookSignature, type DeliverySettings } from './settings.js';

// The deliveries on the wire: one at a time per target, in order of creation, each retried with
// exponential backoff on anything but a 200 until maxAttempts. A delivery waiting for its retry
// does not hold the others back. Only the target's URL is ever called: redirects are not
// followed (a 3xx is a failure, as on the live service).

/** How much of a failed answer's body the log keeps. */
const ERROR_BODY_CHARS = 200;

/** One delivery of a notification to a target, while it is not in a final state. */
export interface Job {
  record: NotificationRecord;
  /** The body as sent (the same bytes on every attempt and replay). */
  text: string;
  delivery: DeliveryRecord;
  target: Target;
  retryTimer?: NodeJS.Timeout | undefined;
}

export class DeliveryQueue {
  /** Deliveries not in a final state (queued, held, sending, retrying). */
  readonly #live = new Set<Job>();
  readonly #queues = new Map<Target, Job[]>();
  readonly #busy = new Set<Target>();
  readonly #kicks = new Map<Target, NodeJS.Immediate>();
  readonly #inFlight = new Set<Promise<void>>();
  readonly #aborts = new Set<AbortController>();
  #closed = false;
  readonly settings: DeliverySettings;
  readonly log: (line: string) => void;

  constructor(settings: DeliverySettings, log: (line: string) => void) {
    this.settings = settings;
    this.log = log;
  }

  /** A new delivery of `record` to `target`, recorded on it; `dropped` at once when the queue is full. */
  create(record: NotificationRecord, text: string, target: Target, reason: DeliveryReason): Job {
    const delivery: DeliveryRecord = {
      target: target.id,
      url: target.url,
      reason,
      state: 'queued',
      attempts: [],
      nextAttemptAt: null,
    };
    record.deliveries.push(delivery);
    const job: Job = { record, text, delivery, target };
    if (this.#live.size >= this.settings.maxQueue) {
      delivery.state = 'dropped';
      this.log(
        `[sandbox] webhook queue full (${this.settings.maxQueue} deliveries): dropped notification ${record.Id} for ${target.url}`,
      );
    } else {
      this.#live.add(job);
    }
    return job;
  }

  isLive(job: Job): boolean {
    return this.#live.has(job);
  }

  /** Keeps the jobs aside (test mode holdAndReverse) until `start` is called with them. */
  hold(jobs: Job[]): void {
    for (const job of jobs) if (this.#live.has(job)) job.delivery.state = 'held';
  }

  /** Queues the jobs still live, in this order, at their targets. */
  start(jobs: Job[]): void {
    for (const job of jobs) if (this.#live.has(job)) this.#enqueue(job);
  }

  /** Cancels the target's deliveries not under way (it was removed). */
  cancelTarget(target: Target): void {
    for (const job of [...this.#live]) {
      if (job.target === target && job.delivery.state !== 'sending') this.#finish(job, 'cancelled');
    }
    this.#queues.delete(target);
    const kick = this.#kicks.get(target);
    if (kick) clearImmediate(kick);
    this.#kicks.delete(target);
  }

  /** Cancels everything, aborts the attempts under way and waits for them: no timer is left. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const kick of this.#kicks.values()) clearImmediate(kick);
    this.#kicks.clear();
    for (const job of [...this.#live]) {
      if (job.delivery.state !== 'sending') this.#finish(job, 'cancelled');
    }
    for (const abort of this.#aborts) abort.abort(new Error('the sandbox closed'));
    await Promise.allSettled([...this.#inFlight]);
  }

  #enqueue(job: Job): void {
    job.delivery.state = 'queued';
    job.delivery.nextAttemptAt = null;
    let queue = this.#queues.get(job.target);
    if (!queue) this.#queues.set(job.target, (queue = []));
    queue.push(job);
    this.#kick(job.target);
  }

  /** Starts the target's next delivery soon: after the API answer that caused it is written. */
  #kick(target: Target): void {
    if (this.#closed || this.#kicks.has(target)) return;
    this.#kicks.set(
      target,
      setImmediate(() => {
        this.#kicks.delete(target);
        this.#pump(target);
      }),
    );
  }

  #pump(target: Target): void {
    if (this.#closed || this.#busy.has(target)) return;
    const job = this.#queues.get(target)?.shift();
    if (!job) return;
    this.#busy.add(target);
    const run = this.#attempt(job).finally(() => {
      this.#busy.delete(target);
      this.#inFlight.delete(run);
      this.#pump(target);
    });
    this.#inFlight.add(run);
  }

  async #attempt(job: Job): Promise<void> {
    const { delivery, target } = job;
    delivery.state = 'sending';
    const startedAt = Date.now();
    const abort = new AbortController();
    this.#aborts.add(abort);
    const timeout = setTimeout(
      () => abort.abort(new Error(`no answer within ${this.settings.timeoutMs} ms`)),
      this.settings.timeoutMs,
    );
    let status: number | null = null;
    let error: string | null = null;
    try {
      const response = await fetch(target.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'billing-elements-sandbox',
          [target.keyHeader]: target.key,
          [target.signatureHeader]: webhookSignature(target.key, target.secret),
        },
        body: job.text,
        redirect: 'manual',
        signal: abort.signal,
      });
      status = response.status;
      const text = await response.text().catch(() => '');
      if (status !== 200) {
        error = `answered ${status}${text ? `: ${text.slice(0, ERROR_BODY_CHARS)}` : ''}`;
      }
    } catch (caught) {
      error = describeError(caught);
    } finally {
      clearTimeout(timeout);
      this.#aborts.delete(abort);
    }
    delivery.attempts.push({
      at: new Date(startedAt).toISOString(),
      durationMs: Date.now() - startedAt,
      status,
      error,
    });
    if (status === 200) {
      if (job.record.kind === 'verification') target.verified = true;
      this.#finish(job, 'delivered');
    } else if (this.#closed || target.removed) {
      this.#finish(job, 'cancelled');
    } else if (delivery.attempts.length < this.settings.maxAttempts) {
      this.#retryLater(job);
    } else {
      this.#finish(job, 'failed');
      this.log(
        `[sandbox] webhook ${target.url}: gave up on notification ${job.record.Id} (${job.record.TypeTrigger ?? 'verification'}) after ${delivery.attempts.length} attempts: ${error}`,
      );
    }
  }

  #retryLater(job: Job): void {
    const waitMs = retryDelayMs(this.settings, job.delivery.attempts.length);
    job.delivery.state = 'retrying';
    job.delivery.nextAttemptAt = new Date(Date.now() + waitMs).toISOString();
    job.retryTimer = setTimeout(() => {
      job.retryTimer = undefined;
      this.#enqueue(job);
    }, waitMs);
  }

  #finish(job: Job, state: FinalDeliveryState): void {
    if (job.retryTimer) clearTimeout(job.retryTimer);
    job.retryTimer = undefined;
    job.delivery.state = state;
    job.delivery.nextAttemptAt = null;
    this.#live.delete(job);
    const queue = this.#queues.get(job.target);
    const index = queue?.indexOf(job) ?? -1;
    if (index >= 0) queue?.splice(index, 1);
  }
}

/** A readable reason for a failed fetch: its cause's code (ECONNREFUSED...) when it has one. */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: string; message?: string } | undefined;
  const detail = cause?.code ?? cause?.message;
  return detail ? `${error.message}: ${detail}` : error.message;
}
