import type { PortalPage } from '../../contract/proxy-api.js';
import type { BillingError } from '../../client/errors.js';
import { hasMessage, type Locale, type MessageKey } from '../../client/i18n.js';
import { remedyFor } from '../../client/portal.js';

/** A refusal as the customer sees it: what happened, and what they can do about it. */
export interface Refusal {
  /** The sentence that says what happened, in customer words. */
  text: MessageKey;
  /** The portal workflow that remedies it, when there is one. */
  page?: PortalPage;
  /** Whether trying again may help (no answer, a timeout, a busy service). */
  retry: boolean;
}

/** Codes whose wording is shared with another code. */
const SAME_TEXT_AS: Record<string, string> = {
  'upstream-timeout': 'timeout',
  'upstream-unavailable': 'network',
};

/** The refusal to show for an error of the proxy or the client. */
export function refusalOf(error: BillingError, locale: Locale): Refusal {
  const code = Object.hasOwn(SAME_TEXT_AS, error.code) ? SAME_TEXT_AS[error.code]! : error.code;
  const key = `error.${code}`;
  const text: MessageKey = hasMessage(locale, key) ? key : 'error.generic';
  const page = remedyFor(error.code);
  if (page) return { text, page, retry: false };
  // Only a failure of the way there (no answer, a timeout, a busy service) may pass on a retry;
  // a refusal of the request itself (a quantity out of range, an ended session) will not.
  return { text, retry: error.retryable || error.code === 'invalid-response' };
}
