import type { BillingError } from '../../client/errors.js';
import { BillingErrorEvent } from '../../client/events.js';
import { openPortalOnDemand } from './remedy.js';

/**
 * Shows the customer the plans: the page's `<plan-picker>` when it has one (scrolled into view
 * and focused), else the portal's change-plan workflow (on `offer` when one is named), its code loaded on
 * first use. A portal
 * that cannot open is reported as `billing-error` on `host`.
 */
export async function seePlans(
  host: HTMLElement & { endpoint: string | undefined; feature: string },
  from: Element,
  offer?: string,
): Promise<void> {
  const picker = document.querySelector<HTMLElement>('plan-picker');
  if (picker) {
    picker.scrollIntoView({ block: 'start', behavior: 'smooth' });
    picker.tabIndex = -1;
    picker.focus({ preventScroll: true });
    return;
  }
  try {
    await openPortalOnDemand(
      { page: 'change-plan', ...(offer ? { offer } : {}) },
      { endpoint: host.endpoint, from },
    );
  } catch (error) {
    // openPortalPage only ever rejects with a BillingError.
    const failure = new BillingErrorEvent({ error: error as BillingError, feature: host.feature });
    host.dispatchEvent(failure);
  }
}
