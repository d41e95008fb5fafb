import type { PortalPage, PortalRequest } from '../../contract/proxy-api.js';
import type { BillingError } from '../../client/errors.js';
import { BillingErrorEvent, BillingRemedyEvent } from '../../client/events.js';
import type { OpenPortalPageOptions } from '../billing-portal/open.js';

/**
 * `openPortalPage`, with its code and the portal element's imported on first use: an element
 * that offers a remedy (a meter, a gate, a purchase) costs its page nothing of the portal
 * until the customer asks for one.
 */
export async function openPortalOnDemand(
  request: PortalRequest,
  options: OpenPortalPageOptions,
): Promise<void> {
  const { openPortalPage } = await import('../billing-portal/open.js');
  await openPortalPage(request, options);
}

/** An element that offers remedies: its proxy and, when it has one, its feature. */
export interface RemedyHost extends HTMLElement {
  endpoint: string | undefined;
  feature: string;
}

/**
 * The user asked for the portal workflow that remedies a refusal: `billing-remedy` first (the
 * host app may cancel it and open the workflow itself), then the page's `<billing-portal>` or
 * the modal portal. A portal that cannot open is reported as `billing-error` (the portal
 * shows its own error and retry). The focus goes back to `from` (default: the host) when a
 * modal closes.
 */
export async function openRemedy(
  host: RemedyHost,
  page: PortalPage,
  code: string | undefined,
  from: Element = host,
  offer?: string,
): Promise<void> {
  const feature = host.feature ? { feature: host.feature } : {};
  // Events are built before being dispatched: the manifest analyzer would read
  // `dispatchEvent(new X(arg))` as an event named after `arg`.
  const remedy = new BillingRemedyEvent({
    page,
    ...(code ? { code } : {}),
    ...feature,
    ...(offer ? { offer } : {}),
  });
  if (!host.dispatchEvent(remedy)) return;
  try {
    await openPortalOnDemand(
      { page, ...(offer ? { offer } : {}) },
      { endpoint: host.endpoint, from },
    );
  } catch (error) {
    // openPortalPage only ever rejects with a BillingError.
    const failure = new BillingErrorEvent({ error: error as BillingError, ...feature });
    host.dispatchEvent(failure);
  }
}
