import type { WebhookTargetConfig } from './settings.js';

// What the delivery log holds, and what the control API shows of it.

/**
 * Where a delivery is: `held` (test mode holdAndReverse), `queued` (waiting for its turn at the
 * target), `sending`, `retrying` (waiting for its next attempt), then one of the final states:
 * `delivered` (answered 200), `failed` (every attempt failed), `dropped` (the queue was full),
 * `cancelled` (its target was removed or the sandbox closed).
 */
export type DeliveryState =
  'held' | 'queued' | 'sending' | 'retrying' | 'delivered' | 'failed' | 'dropped' | 'cancelled';

export type FinalDeliveryState = Extract<
  DeliveryState,
  'delivered' | 'failed' | 'dropped' | 'cancelled'
>;

/** Why the delivery exists: the notification itself, the duplicate test mode, or a replay. */
export type DeliveryReason = 'first' | 'duplicate' | 'replay';

export interface AttemptRecord {
  /** When it started (real time). */
  at: string;
  durationMs: number;
  /** The receiver's status, or null when none came (network error, timeout). */
  status: number | null;
  /** Why it failed; null when the receiver answered 200. */
  error: string | null;
}

export interface DeliveryRecord {
  /** The target's id. */
  target: string;
  url: string;
  reason: DeliveryReason;
  state: DeliveryState;
  attempts: AttemptRecord[];
  /** When the next attempt is due (real time), while `retrying`. */
  nextAttemptAt: string | null;
}

export interface NotificationRecord {
  /** The envelope's Id. */
  Id: string;
  /** `verification`: the post that validates a new target (no TypeTrigger). */
  kind: 'event' | 'verification';
  TypeTrigger: string | null;
  ReferenceCustomer: string | null;
  /** Sandbox time of the change. */
  DateTrigger: string;
  /** Real time it was created. */
  createdAt: string;
  body: Record<string, unknown>;
  deliveries: DeliveryRecord[];
}

export interface Target extends WebhookTargetConfig {
  id: string;
  key: string;
  addedAt: string;
  verificationCode: string;
  /** The verification post was answered 200. */
  verified: boolean;
  removed: boolean;
}

export type TargetView = Omit<Target, 'secret' | 'removed'>;

export function targetView(target: Target): TargetView {
  const { secret: _secret, removed: _removed, ...view } = target;
  return view;
}

/** A deep copy: the log keeps changing after a control call read it. */
export function notificationView(record: NotificationRecord): NotificationRecord {
  return structuredClone(record);
}
