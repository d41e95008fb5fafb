import { createHash } from 'node:crypto';
import * as z from 'zod';
import {
  NOTIFICATION_KEY_HEADER,
  NOTIFICATION_SIGNATURE_HEADER,
} from '../../contract/notifications.js';

// Where the sandbox sends its notifications and how hard it tries. The same target schema
// validates the fixture's `webhooks`, startSandbox's `webhooks` option and the control API.

/** The secret the command line uses when --webhook-secret is not given (documented, not secret). */
export const DEFAULT_WEBHOOK_SECRET = 'sandbox-webhook-secret';

const HeaderName = z
  .string()
  .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'must be an HTTP header name')
  .transform((name) => name.toLowerCase());

/** What goes into a header value: visible ASCII, no spaces around. */
const HeaderValue = z
  .string()
  .min(1, 'must not be empty')
  .max(256, 'must be at most 256 characters')
  .regex(/^[\x21-\x7e]+$/, 'must be visible ASCII characters without spaces');

/** True unless the URL has a user or password (an unparsable one is the url check's business). */
function withoutCredentials(url: string): boolean {
  if (!URL.canParse(url)) return true;
  const { username, password } = new URL(url);
  return username === '' && password === '';
}

export const WebhookTargetSchema = z
  .object({
    /** Where to POST: http or https, nothing else. Redirects are never followed. */
    url: z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
      .refine(withoutCredentials, { message: 'must not carry credentials' }),
    /** Identifies the webhook, sent on every delivery; default `sandbox-webhook-<id>`. */
    key: HeaderValue.optional(),
    /** Signs the deliveries: base64 of SHA-256 over key + secret. */
    secret: z
      .string()
      .min(1, 'must not be empty')
      .refine((value) => value.trim() === value, 'has leading or trailing spaces'),
    keyHeader: HeaderName.default(NOTIFICATION_KEY_HEADER),
    signatureHeader: HeaderName.default(NOTIFICATION_SIGNATURE_HEADER),
  })
  .strict();
export type WebhookTargetInput = z.input<typeof WebhookTargetSchema>;
export type WebhookTargetConfig = z.output<typeof WebhookTargetSchema>;

export const DeliverySettingsSchema = z
  .object({
    /** Wait before the first retry; it doubles at each retry, with jitter. */
    initialDelayMs: z.int().min(1).max(3_600_000).default(500),
    /** Longest wait between two attempts. */
    maxDelayMs: z.int().min(1).max(86_400_000).default(60_000),
    /** Attempts of one delivery, the first included; then it is `failed`. */
    maxAttempts: z.int().min(1).max(100).default(8),
    /** An attempt without an answer after this long is a failure. */
    timeoutMs: z.int().min(1).max(300_000).default(10_000),
    /** Deliveries not finished yet (queued, in flight, waiting for a retry, held); more are dropped. */
    maxQueue: z.int().min(1).max(100_000).default(1_000),
    /** Notifications the delivery log keeps (the oldest go first). */
    logSize: z.int().min(1).max(100_000).default(500),
  })
  .strict();
export type DeliverySettingsInput = z.input<typeof DeliverySettingsSchema>;
export type DeliverySettings = z.output<typeof DeliverySettingsSchema>;

/** The signature header's value: base64 of SHA-256 over the UTF-8 bytes of key + secret. */
export function webhookSignature(key: string, secret: string): string {
  return createHash('sha256')
    .update(key + secret, 'utf8')
    .digest('base64');
}

/**
 * The wait before retry number `retry` (1 = the first retry): initialDelayMs doubled at each
 * retry, capped at maxDelayMs, then a random share of 50 to 100 % of it so that deliveries
 * that failed together do not come back together.
 */
export function retryDelayMs(
  settings: DeliverySettings,
  retry: number,
  random: () => number = Math.random,
): number {
  const exponential = Math.min(settings.maxDelayMs, settings.initialDelayMs * 2 ** (retry - 1));
  return Math.round(exponential * (0.5 + random() / 2));
}
