// Shared by every signed-in page: registers the elements (as an SPA would, through the npm
// entry points) and fills the plan badge of the header.
import 'billing-elements/define';
import { configureBilling, getProxyClient, getUsageStore } from 'billing-elements';
import type { SubscriptionStatusResponse } from 'billing-elements';
import { word } from './words.js';

// '/billing' is the default; spelled out because this is where the demo mounts its proxy. The
// pages' `label` attributes are written in the page's language by the demo's server.
configureBilling({ endpoint: '/billing' });

const STATUS_WORD = {
  running: 'status.active',
  suspended: 'status.suspended',
  pending: 'status.pending',
  ended: 'status.ended',
  none: 'status.none',
  other: 'status.other',
} as const satisfies Record<SubscriptionStatusResponse['status'], string>;

export const STATUS_TONE: Record<SubscriptionStatusResponse['status'], string> = {
  running: 'ok',
  suspended: 'critical',
  pending: 'info',
  ended: 'warning',
  none: 'info',
  other: 'warning',
};

export function statusText(status: SubscriptionStatusResponse['status']): string {
  return word(STATUS_WORD[status]);
}

type SubscriptionListener = (result: PromiseSettledResult<SubscriptionStatusResponse>) => void;
const listeners = new Set<SubscriptionListener>();

let latestRequest = 0;

/** Fetches the subscription (at load, after a purchase or a portal workflow) and tells every watcher. */
function loadSubscription(): void {
  const request = ++latestRequest;
  getProxyClient()
    .getSubscription()
    .then(
      (value) => ({ status: 'fulfilled' as const, value }),
      (reason: unknown) => ({ status: 'rejected' as const, reason }),
    )
    .then((result) => {
      // An older answer arriving late must not undo a newer one.
      if (request !== latestRequest) return;
      for (const listener of listeners) listener(result);
    });
}

/** Calls `listener` with every state of the subscription this page learns. */
export function watchSubscription(listener: SubscriptionListener): void {
  listeners.add(listener);
}

watchSubscription((result) => {
  const badge = document.querySelector<HTMLElement>('[data-plan]');
  if (!badge) return;
  if (result.status === 'rejected') {
    badge.hidden = true;
    return;
  }
  const sub = result.value;
  badge.className = `plan tag tone-${STATUS_TONE[sub.status]}`;
  badge.textContent = sub.title
    ? `${sub.title} · ${statusText(sub.status)}`
    : statusText(sub.status);
  badge.hidden = false;
});

// The usages are kept for the browser session: forget them when this customer leaves.
document
  .querySelector('form[action="/session/sign-out"]')
  ?.addEventListener('submit', () => getUsageStore().clear());

document.addEventListener('billing-portal-complete', loadSubscription);
document.addEventListener('billing-purchase', loadSubscription);
document.addEventListener('billing-plan-change', loadSubscription);
// Every page module has registered its watchers once the module graph has run.
queueMicrotask(loadSubscription);
