import { randomBytes, randomUUID } from 'node:crypto';
import type { NotificationEnvelope } from '../../contract/notifications.js';
import { iso } from '../clock.js';
import type { StateEvent } from '../state/types.js';
import { DeliveryQueue, type Job } from './delivery.js';
import {
  notificationView,
  targetView,
  type DeliveryReason,
  type NotificationRecord,
  type Target,
  type TargetView,
} from './records.js';
import type { DeliverySettings, WebhookTargetConfig } from './settings.js';

// The service's notifications (live-service-notes.md, "Notifications"): the webhook targets,
// the delivery log, replays and the test modes. Delivered at least once and not ordered, never in
// the way of the API answer that caused them (delivery.ts sends them).

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
  readonly #queue: DeliveryQueue;
  readonly #targets = new Map<string, Target>();
  #nextTargetId = 1;
  /** The delivery log, oldest first, at most settings.logSize notifications. */
  readonly #log: NotificationRecord[] = [];
  readonly #texts = new WeakMap<NotificationRecord, string>();
  #duplicate = 0;
  #holdAndReverse = 0;
  /** Held notifications' deliveries, in the order the notifications came. */
  #held: Job[][] = [];
  #closed = false;

  constructor(options: NotifierOptions) {
    this.#options = options;
    this.settings = options.settings;
    this.#queue = new DeliveryQueue(options.settings, options.log);
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
    const body = {
      Id: randomUUID(),
      DateTrigger: iso(this.#options.nowMs()),
      VerificationCode: target.verificationCode,
    };
    const record = this.#record('verification', body, null, null);
    this.#queue.start([this.#job(record, target, 'first')]);
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
    this.#queue.cancelTarget(target);
    this.#held = this.#held.map((jobs) => jobs.filter((job) => job.target !== target));
    return true;
  }

  // --- notifications ---

  /** A change happened: builds its envelope and queues it for every target. */
  notify(event: StateEvent): void {
    if (this.#closed || this.#targets.size === 0) return;
    let envelope: NotificationEnvelope | null;
    try {
      envelope = this.#options.build(event);
    } catch (error) {
      // This runs inside the operation that made the change, after its mutation: a failure
      // here must not turn an applied change into an error answer.
      this.#options.log(`[sandbox] no notification for ${event.type}: ${String(error)}`);
      return;
    }
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
    else this.#queue.start(jobs);
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
    this.#queue.start(targets.map((target) => this.#job(record, target, 'replay')));
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
    this.#queue.hold(jobs);
    this.#held.push(jobs.filter((job) => this.#queue.isLive(job)));
    if (this.#held.length >= this.#holdAndReverse) this.#releaseHeld();
  }

  #releaseHeld(): void {
    const newestFirst = this.#held.reverse();
    this.#held = [];
    this.#holdAndReverse = 0;
    for (const jobs of newestFirst) this.#queue.start(jobs);
  }

  // --- the log ---

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

  #job(record: NotificationRecord, target: Target, reason: DeliveryReason): Job {
    return this.#queue.create(record, this.#texts.get(record) ?? '', target, reason);
  }

  /** Stops: nothing is sent after this resolves, and no timer is left behind. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#held = [];
    await this.#queue.close();
  }
}
