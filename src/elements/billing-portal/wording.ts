import type { PortalRequest } from '../../contract/proxy-api.js';
import type { BillingError } from '../../client/errors.js';
import { errorMessage, message, messageOr } from '../../client/i18n.js';
import { httpUrl } from '../../client/safe-url.js';
import { CONSOLE_PREFIX, setupHint } from '../shared/warn.js';

// What <billing-portal> says about the page it opens: the modal's title for the task, and why a
// page could not be opened, one sentence per cause rather than the proxy's code.

/**
 * The modal portal's title: the task it was opened for ("Restart your subscription"); for a
 * page whose link already names it, that link's text ("Change plan", "Manage billing", "See
 * plans", and "Subscribe" to a chosen offer).
 */
export function taskTitle(host: Element, { page, offer }: PortalRequest): string {
  const task = page === 'subscribe' && offer ? '' : `portal.title.${page}`;
  return messageOr(host, task, `portal.link.${page}`);
}

/**
 * Why `page` could not be opened: a page or a parameter the proxy does not take (400: the page's
 * setup), a page that does not apply to the subscription as it is (409), something it names that
 * does not exist (404), else the error's own text.
 */
export function refusalText(host: Element, error: BillingError, page: string): string {
  const { code, status, field } = error;
  if (code === 'unsafe-url') return message(host, 'portal.unsafe');
  // A parameter other than the page the proxy refuses: the generic text (the console says which).
  if (code === 'validation' && status === 400) {
    return message(host, field === 'page' ? 'portal.refused.unknown-page' : 'portal.error');
  }
  if (code === 'validation')
    return messageOr(host, `portal.unavailable.${page}`, 'portal.unavailable');
  if (code === 'not-found') return message(host, 'portal.refused.not-found');
  return errorMessage(host, code, 'portal.error');
}

/** Whether opening again could help: not for what the page's setup or the request got wrong. */
export function retryHelps({ code, status }: BillingError): boolean {
  return !(
    (code === 'validation' && status === 400) ||
    code === 'not-found' ||
    code === 'already-subscribed' ||
    code === 'csp-blocked' ||
    code === 'trusted-types-blocked'
  );
}

/** The console line for a refusal only the page's setup can fix, else undefined. */
export function portalHint(error: BillingError, page: string, tag: string): string | undefined {
  // The page's CSP or Trusted Types: the error's message is the console line naming the fix.
  if (error.code === 'csp-blocked' || error.code === 'trusted-types-blocked') return error.message;
  if (error.code === 'unsafe-url') {
    const address = error.message.replace(/^Origin not allowed: /, '');
    const origin = httpUrl(address)?.origin ?? address;
    return (
      `${CONSOLE_PREFIX} <${tag} page="${page}">: the address ${address} is not on this page's ` +
      `origin, the billing service's hosted origin or a trusted one, so it is not followed. ` +
      `Trust its origin with configureBilling({ trustedOrigins: ['${origin}'] }), or (in-site ` +
      `links) set the business's installation URL to a page of this app.`
    );
  }
  if (error.code !== 'validation' || error.status !== 400) return undefined;
  return setupHint(`<${tag} page="${page}">`, 'the page', error);
}
