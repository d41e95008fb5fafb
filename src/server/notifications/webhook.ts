import type { IdempotencyStore } from '../idempotency/store.js';
import type { ProxyLogger, ResolvedOptions } from '../options.js';
import { ProxyError } from '../errors.js';
import { jsonResponse, readJsonBody } from '../http.js';
import type { SignalBus } from './signals.js';

// POST {basePath}/webhooks: the billing service's notifications (live-service-notes.md,
// "Notifications"). Each one is a signal, never state: the proxy tells that customer's open
// pages "your billing changed", and the pages re-read it. Nothing in the body is trusted beyond
// the customer reference it names: the signature proves the sender knows the secret, nothing
// about the body, and a captured request can be replayed (deduplication on `Id` makes a replay
// a no-op for as long as the key is remembered, and a replay only makes pages re-read).

/** What `onNotification` receives. Re-read the customer's state from the API; do not parse `body`. */
export interface BillingNotification {
  /** The notification's `Id`: duplicates and replays share it. */
  id: string;
  /** `TypeTrigger`, the event code (an open enumeration: unknown values are normal). */
  type: string;
  /** `Customer.ReferenceCustomer`: whose billing changed (undefined when the body names none). */
  customer: string | undefined;
  /** The body as received. Unsigned: use it to decide what to re-read, never as state. */
  body: Record<string, unknown>;
}

export type WebhookOptions = NonNullable<ResolvedOptions['notifications']>;

const encoder = new TextEncoder();

/** The signature the service sends: base64 of SHA-256 over the UTF-8 bytes of key + secret. */
export async function webhookSignature(key: string, secret: string): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest('SHA-256', encoder.encode(key + secret)),
  );
  let binary = '';
  for (const byte of digest) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Compares two strings in time that depends on the expected one's length only. */
function constantTimeEqual(given: string, expected: string): boolean {
  const a = encoder.encode(given);
  const b = encoder.encode(expected);
  let difference = a.length === b.length ? 0 : 1;
  for (let index = 0; index < b.length; index++) difference |= (a[index] ?? 0) ^ (b[index] ?? 0);
  return difference === 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export interface WebhookContext {
  options: WebhookOptions;
  store: IdempotencyStore;
  signals: SignalBus;
  logger: ProxyLogger;
  /**
   * Keeps work going after the answer (a Worker's `ctx.waitUntil`): without it, the work runs
   * on a timer, which Cloudflare Workers cancels once the answer is sent.
   */
  waitUntil?: ((work: Promise<unknown>) => void) | undefined;
}

/** The webhook route: checks the signature first, answers 200 fast, works after the answer. */
export async function receiveNotification(
  request: Request,
  { options, store, signals, logger, waitUntil }: WebhookContext,
): Promise<Response> {
  if (request.method !== 'POST') {
    throw new ProxyError(405, 'method-not-allowed', 'Use POST.', { headers: { allow: 'POST' } });
  }
  const key = request.headers.get(options.keyHeader) ?? '';
  const signature = request.headers.get(options.signatureHeader) ?? '';
  const expected = await webhookSignature(key, options.secret);
  const keyMatches = options.key === undefined || constantTimeEqual(key, options.key);
  if (!(constantTimeEqual(signature, expected) && keyMatches && key !== '')) {
    logger({
      level: 'warn',
      event: 'webhook-refused',
      message: `Refused a notification: ${key === '' || signature === '' ? 'no key or signature header' : 'wrong signature or key'}`,
    });
    throw new ProxyError(
      403,
      'invalid-signature',
      'The notification is not signed with this secret.',
    );
  }

  const body = await readJsonBody(request, options.maxBodyBytes);
  const id = isRecord(body) ? body.Id : undefined;
  if (!isRecord(body) || (typeof id !== 'string' && typeof id !== 'number')) {
    throw new ProxyError(400, 'validation', 'A notification is a JSON object with an Id.', {
      field: 'Id',
    });
  }
  if (typeof body.TypeTrigger !== 'string' || body.TypeTrigger === '') {
    // The service validates a new webhook with a post that has no TypeTrigger: answer 200 and
    // show the operator the code to confirm it with.
    const code = body.VerificationCode ?? body.Code ?? body.Verification;
    logger({
      level: 'warn',
      event: 'webhook-verification',
      message: `The billing service is verifying this webhook; its verification code is ${JSON.stringify(code ?? null)}`,
      code,
    });
    return jsonResponse(200, { received: true, verification: true });
  }
  if (!(await store.setIfAbsent(`notification:${id}`, '1', options.dedupeTtlMs))) {
    return jsonResponse(200, { received: true, duplicate: true });
  }

  const customerBlock = body.Customer;
  const reference = isRecord(customerBlock) ? customerBlock.ReferenceCustomer : undefined;
  const notification: BillingNotification = {
    id: String(id),
    type: body.TypeTrigger,
    customer: typeof reference === 'string' && reference !== '' ? reference : undefined,
    body,
  };
  // The work happens after the answer: the service wants its 200 fast, and retries without it.
  if (waitUntil !== undefined) waitUntil(dispatch(notification, options, signals, logger));
  else setTimeout(() => void dispatch(notification, options, signals, logger), 0);
  return jsonResponse(200, { received: true });
}

async function dispatch(
  notification: BillingNotification,
  options: WebhookOptions,
  signals: SignalBus,
  logger: ProxyLogger,
): Promise<void> {
  logger({
    level: 'info',
    event: 'notification',
    message: `${notification.type} for ${notification.customer ?? 'no customer'}`,
    id: notification.id,
  });
  try {
    if (notification.customer !== undefined) await signals.publish(notification.customer);
  } catch (error) {
    logger({ level: 'error', event: 'signal-failed', message: String(error) });
  }
  try {
    await options.onNotification?.(notification);
  } catch (error) {
    logger({
      level: 'error',
      event: 'on-notification-failed',
      message: error instanceof Error ? error.message : String(error),
      stack: error instanceof Error ? error.stack : undefined,
    });
  }
}
