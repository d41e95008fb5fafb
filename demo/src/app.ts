// Shared by every signed-in page: registers the elements (as an SPA would, through the npm
// entry points) and fills the plan badge of the header. The demo switches languages by loading
// the page again, but a host app may switch `<html lang>` in place: the elements follow it, and
// so do the words the demo's scripts write and the names its pages give the elements.
import 'billing-elements/define';
import { configureBilling, getProxyClient, getUsageStore, watchLang } from 'billing-elements';
import type { SubscriptionStatusResponse } from 'billing-elements';
import { FEATURE_LABELS } from '../labels.js';
import { scenarioState } from '../scenario-state.js';
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

/**
 * Fetches the subscription (at load, after a purchase, a portal workflow or a change made
 * elsewhere) and tells every watcher.
 */
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

/** The subscription the header's badge shows, to write again in another language. */
let badgeSubscription: SubscriptionStatusResponse | undefined;

function showBadge(): void {
  const badge = document.querySelector<HTMLElement>('[data-plan]');
  const sub = badgeSubscription;
  if (!badge || !sub) return;
  badge.className = `plan tag tone-${STATUS_TONE[sub.status]}`;
  badge.textContent = sub.title
    ? `${sub.title} · ${statusText(sub.status)}`
    : statusText(sub.status);
  badge.hidden = false;
}

watchSubscription((result) => {
  if (result.status === 'rejected') {
    badgeSubscription = undefined;
    const badge = document.querySelector<HTMLElement>('[data-plan]');
    if (badge) badge.hidden = true;
    return;
  }
  badgeSubscription = result.value;
  showBadge();
  // The sample customer's note tells its starting state: once the customer has changed it (here
  // or in another tab), it would contradict the badge, so it goes.
  const note = document.querySelector<HTMLElement>('[data-scenario]');
  if (note) note.hidden = scenarioState(result.value) !== note.dataset['scenario'];
});

/**
 * The names the page gives its elements (`label`, and `label-one` of a `<buy-feature>`), in the
 * page's language: the server wrote them in the language the page was loaded in.
 */
function nameElements(): void {
  const labels = FEATURE_LABELS[document.documentElement.lang === 'fr' ? 'fr' : 'en'];
  for (const element of document.querySelectorAll('[feature][label]')) {
    const key = `label.${element.getAttribute('feature') ?? ''}`;
    const units = element.localName === 'buy-feature';
    const label = labels[units ? `${key}.other` : key];
    if (label) element.setAttribute('label', label);
    const one = labels[`${key}.one`];
    if (units && one && element.hasAttribute('label-one')) element.setAttribute('label-one', one);
  }
}

watchLang(() => {
  showBadge();
  nameElements();
});

// The usages are kept for the browser session: forget them when this customer leaves.
document
  .querySelector('form[action="/session/sign-out"]')
  ?.addEventListener('submit', () => getUsageStore().clear());

document.addEventListener('billing-portal-complete', loadSubscription);
document.addEventListener('billing-purchase', loadSubscription);
document.addEventListener('billing-plan-change', loadSubscription);
// A change made elsewhere (another tab, the back office, a payment): the proxy's event stream
// told the page, which re-read its usages; the subscription is read again too.
document.addEventListener('billing-updated', loadSubscription);
// Every page module has registered its watchers once the module graph has run.
queueMicrotask(loadSubscription);
