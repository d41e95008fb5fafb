import { randomBytes, randomUUID } from 'node:crypto';
import type { NotificationEnvelope } from '../../contract/notifications.js';
import { iso } from '../clock.js';
import type { StateEvent } from '../state/types.js';
import {
  notificationView,
  targetView,
  type DeliveryReason,
  type DeliveryRecord,
  type FinalDeliveryState,
  type NotificationRecord,
  type Target,
  type TargetView,
} from './records.js';
import {
  retryDelayMs,
  webhookSignature,
  type DeliverySettings,
  type WebhookTargetConfig,
} from './settings.js';

// Sends the service's notifications to the configured targets (live-service-notes.md,
// "Notifications"): at least once, not ordered, retried with exponential backoff on anything but
// a 200, never in the way of the API answer that caused them. One delivery at a time per target;
// a delivery waiting for its retry does not hold the others back. Only the configured URLs are
// ever called: redirects are not followed (a 3xx is a failure, as on the live service).

/** How much of a failed answer's body the log keeps. */
const ERROR_BODY_CHARS = 200;

interface Job {
  record: NotificationRecord;
  text: string;
  delivery: DeliveryRecord;
  target: Target;
  retryTimer?: NodeJS.Timeout | undefined;
}

export interface NotifierOptions {
  settings: DeliverySettings;
  /** The envelope of a change, or null when there is nothing to say. */
  build(event: StateEvent): NotificationEnvelope | null;
  /** The sandbox's clock (the verification post's DateTrigger). */
  nowMs(): number;
  log(line: string): void;
}

/** Test modes: the next notifications delivered twice, or held and delivered newest first. */
export interface DeliveryMode {
  /** The next `duplicate` notifications are delivered twice to each target. */
  duplicate: number;
  /** The next `holdAndReverse` notifications are held, then delivered newest first. */
  holdAndReverse: number;
  /** Notifications held now. */
  held: number;
}

export class Notifier {
  readonly settings: DeliverySettings;
  readonly #options: NotifierOptions;
  readonly #targets = new Map<string, Target>();
  #nextTargetId = 1;
  /** The delivery log, oldest first, at most settings.logSize notifications. */
  readonly #log: NotificationRecord[] = [];
  readonly #texts = new WeakMap<NotificationRecord, string>();
  /** Deliveries not in a final state. */
  readonly #live = new Set<Job>();
  readonly #queues = new Map<Target, Job[]>();
  readonly #busy = new Set<Target>();
  readonly #kicks = new Map<Target, NodeJS.Immediate>();
  readonly #inFlight = new Set<Promise<void>>();
  readonly #aborts = new Set<AbortController>();
  #duplicate = 0;
  #holdAndReverse = 0;
  /** Held notifications' jobs, in the order they came. */
  #held: Job[][] = [];
  #closed = false;

  constructor(options: NotifierOptions) {
    this.#options = options;
    this.settings = options.settings;
  }

  // --- targets ---

  /** Adds a target and posts it the verification code. */
  addTarget(config: WebhookTargetConfig): TargetView {
    const id = String(this.#nextTargetId++);
    const target: Target = {
      ...config,
      id,
      key: config.key ?? `sandbox-webhook-${id}`,
      addedAt: new Date().toISOString(),
      verificationCode: randomBytes(4).toString('hex').toUpperCase(),
      verified: false,
      removed: false,
    };
    this.#targets.set(id, target);
    this.#queues.set(target, []);
    const body = {
      Id: randomUUID(),
      DateTrigger: iso(this.#options.nowMs()),
      VerificationCode: target.verificationCode,
    };
    const record = this.#record('verification', body, null, null);
    this.#start([this.#job(record, target, 'first')]);
    return targetView(target);
  }

  targets(): TargetView[] {
    return [...this.#targets.values()].map(targetView);
  }

  hasTarget(id: string): boolean {
    return this.#targets.has(id);
  }

  /** Removes a target; its deliveries not yet made are cancelled. */
  removeTarget(id: string): boolean {
    const target = this.#targets.get(id);
    if (!target) return false;
    target.removed = true;
    this.#targets.delete(id);
    for (const job of [...this.#live]) {
      if (job.target === target && job.delivery.state !== 'sending') this.#finish(job, 'cancelled');
    }
    this.#held = this.#held.map((jobs) => jobs.filter((job) => job.target !== target));
    this.#queues.delete(target);
    const kick = this.#kicks.get(target);
    if (kick) clearImmediate(kick);
    this.#kicks.delete(target);
    return true;
  }

  // --- notifications ---

  /** A change happened: builds its envelope and queues it for every target. */
  notify(event: StateEvent): void {
    if (this.#closed || this.#targets.size === 0) return;
    const envelope = this.#options.build(event);
    if (!envelope) return;
    const record = this.#record(
      'event',
      envelope,
      envelope.TypeTrigger,
      envelope.Customer.ReferenceCustomer,
    );
    const copies = this.#duplicate > 0 ? 2 : 1;
    if (copies === 2) this.#duplicate -= 1;
    const jobs: Job[] = [];
    for (const target of this.#targets.values()) {
      for (let copy = 0; copy < copies; copy++) {
        jobs.push(this.#job(record, target, copy === 0 ? 'first' : 'duplicate'));
      }
    }
    if (this.#holdAndReverse > 0) this.#hold(jobs);
    else this.#start(jobs);
  }

  /** The delivery log, oldest first. */
  deliveries(filter: { type?: string; customer?: string } = {}): NotificationRecord[] {
    return this.#log
      .filter(
        (record) =>
          (filter.type === undefined || record.TypeTrigger === filter.type) &&
          (filter.customer === undefined || record.ReferenceCustomer === filter.customer),
      )
      .map(notificationView);
  }

  find(id: string): NotificationRecord | undefined {
    const record = this.#log.find((candidate) => candidate.Id === id);
    return record && notificationView(record);
  }

  /** Forgets the log (deliveries under way go on). */
  clearLog(): void {
    this.#log.length = 0;
  }

  /**
   * Sends a logged notification again, same Id and body, to one target or to every target (a
   * verification: to its own target). Returns the number of deliveries queued.
   */
  replay(id: string, targetId?: string): number {
    const record = this.#log.find((candidate) => candidate.Id === id);
    if (!record || this.#closed) return 0;
    const origin = record.deliveries[0]?.target;
    const targets = [...this.#targets.values()].filter((target) =>
      targetId !== undefined
        ? target.id === targetId
        : record.kind === 'event' || target.id === origin,
    );
    this.#start(targets.map((target) => this.#job(record, target, 'replay')));
    return targets.length;
  }

  // --- test modes ---

  mode(): DeliveryMode {
    return {
      duplicate: this.#duplicate,
      holdAndReverse: this.#holdAndReverse,
      held: this.#held.length,
    };
  }

  setMode(mode: { duplicate?: number | undefined; holdAndReverse?: number | undefined }) {
    if (mode.duplicate !== undefined) this.#duplicate = mode.duplicate;
    if (mode.holdAndReverse !== undefined) {
      this.#holdAndReverse = mode.holdAndReverse;
      if (this.#held.length >= this.#holdAndReverse) this.#releaseHeld();
    }
    return this.mode();
  }

  /** Ends both test modes; notifications held so far are delivered, newest first. */
  clearMode(): DeliveryMode {
    this.#duplicate = 0;
    this.#releaseHeld();
    return this.mode();
  }

  #hold(jobs: Job[]): void {
    for (const job of jobs) job.delivery.state = 'held';
    this.#held.push(jobs.filter((job) => this.#live.has(job)));
    if (this.#held.length >= this.#holdAndReverse) this.#releaseHeld();
  }

  #releaseHeld(): void {
    const held = this.#held.reverse();
    this.#held = [];
    this.#holdAndReverse = 0;
    for (const jobs of held) this.#start(jobs);
  }

  // --- delivery ---

  #record(
    kind: NotificationRecord['kind'],
    body: Record<string, unknown> & { Id: string; DateTrigger: string },
    type: string | null,
    customer: string | null,
  ): NotificationRecord {
    const record: NotificationRecord = {
      Id: body.Id,
      kind,
      TypeTrigger: type,
      ReferenceCustomer: customer,
      DateTrigger: body.DateTrigger,
      createdAt: new Date().toISOString(),
      body,
      deliveries: [],
    };
    this.#texts.set(record, JSON.stringify(body));
    this.#log.push(record);
    if (this.#log.length > this.settings.logSize) this.#log.shift();
    return record;
  }

  /** A new delivery of `record` to `target`; dropped at once when the queue is full. */
  #job(record: NotificationRecord, target: Target, reason: DeliveryReason): Job {
    const delivery: DeliveryRecord = {
      target: target.id,
      url: target.url,
      reason,
      state: 'queued',
      attempts: [],
      nextAttemptAt: null,
    };
    record.deliveries.push(delivery);
    const job: Job = { record, text: this.#texts.get(record) ?? '', delivery, target };
    if (this.#live.size >= this.settings.maxQueue) {
      delivery.state = 'dropped';
      this.#options.log(
        `[sandbox] webhook queue full (${this.settings.maxQueue} deliveries): dropped notification ${record.Id} for ${target.url}`,
      );
    } else {
      this.#live.add(job);
    }
    return job;
  }

  #start(jobs: Job[]): void {
    for (const job of jobs) if (this.#live.has(job)) this.#enqueue(job);
  }

  #enqueue(job: Job): void {
    job.delivery.state = 'queued';
    job.delivery.nextAttemptAt = null;
    this.#queues.get(job.target)?.push(job);
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
      this.#options.log(
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

  /** Stops: nothing is sent after this resolves, and no timer is left behind. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const kick of this.#kicks.values()) clearImmediate(kick);
    this.#kicks.clear();
    for (const job of [...this.#live]) {
      if (job.delivery.state !== 'sending') this.#finish(job, 'cancelled');
    }
    this.#held = [];
    for (const abort of this.#aborts) abort.abort(new Error('the sandbox closed'));
    await Promise.allSettled([...this.#inFlight]);
  }
}

/** A readable reason for a failed fetch: its cause's code (ECONNREFUSED...) when it has one. */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: string; message?: string } | undefined;
  const detail = cause?.code ?? cause?.message;
  return detail ? `${error.message}: ${detail}` : error.message;
}
