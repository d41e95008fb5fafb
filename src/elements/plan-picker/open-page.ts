import type { PortalPage } from '../../contract/proxy-api.js';
import type { BillingError } from '../../client/errors.js';
import { BillingErrorEvent, BillingRemedyEvent } from '../../client/events.js';
import { openPortalOnDemand } from '../shared/remedy.js';

/**
 * Opens a portal workflow for `<plan-picker>` (subscribe to an offer, complete a pending
 * subscription, restart a suspended one, register a payment method): `billing-remedy` first,
 * cancelable, then the page's `<billing-portal>` or the modal portal; a portal that cannot open
 * is reported as `billing-error`, and resolves to its error. The focus goes back to `from` when
 * a modal closes.
 */
export async function openPlanPage(
  host: HTMLElement & { endpoint: string | undefined },
  page: PortalPage,
  options: { offer?: string; code?: string; from?: Element } = {},
): Promise<BillingError | undefined> {
  const { offer, code, from = host } = options;
  const remedy = new BillingRemedyEvent({ page, ...(code ? { code } : {}) });
  if (!host.dispatchEvent(remedy)) return undefined;
  try {
    await openPortalOnDemand(
      { page, ...(offer ? { offer } : {}) },
      { endpoint: host.endpoint, from },
    );
    return undefined;
  } catch (error) {
    // openPortalPage only ever rejects with a BillingError.
    const failure = new BillingErrorEvent({ error: error as BillingError });
    host.dispatchEvent(failure);
    return error as BillingError;
  }
}
