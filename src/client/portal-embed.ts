import type { PortalRequest, PortalResponse } from '../contract/proxy-api.js';
import { resolveEndpoint } from './config.js';
import { afterViolationReports, cspRefusal, watchViolations } from './csp.js';
import { BillingError } from './errors.js';
import {
  BillingPortalCompleteEvent,
  BillingPortalReadyEvent,
  type PortalWorkflow,
} from './events.js';
import { loadPortalScript } from './portal-script.js';
import { getProxyClient } from './proxy-client.js';
import { followableUrl } from './safe-url.js';
import { getUsageStore } from './usage-store.js';

export interface EmbedPortalOptions {
  /**
   * The element the script renders into: in the document (not a shadow root), with an id. A
   * function is called only once the script is loaded, right before the page opens: the host
   * puts the container in its light DOM then, not before (a framework hydrating the page would
   * otherwise find a child it did not render).
   */
  container: HTMLElement | (() => HTMLElement);
  request: PortalRequest;
  endpoint?: string | null;
  /** CSP nonce of the script element. */
  nonce?: string;
  /** Name of the script's global. */
  globalName?: string;
  /** Aborts the opening and removes the listeners it added. */
  signal?: AbortSignal;
  /** Where `billing-portal-ready` / `billing-portal-complete` are dispatched (default: the container). */
  eventTarget?: EventTarget;
  /**
   * Called when the page's CSP blocks the opened portal afterwards (its hosted page, `frame-src`):
   * a `csp-blocked` error naming the directive to fix. Until `signal` aborts (or 10 s without one).
   */
  onBlocked?: (error: BillingError) => void;
}

/**
 * The address (`followableUrl`) the portal may follow, else an `unsafe-url` error: the
 * portal script's, or the in-site page's of `<billing-portal mode="link">`.
 */
export function followableOrThrow(address: string, extraOrigins?: readonly string[]): string {
  const url = followableUrl(address, extraOrigins);
  if (!url) throw new BillingError('unsafe-url', `Origin not allowed: ${address}`);
  return url.href;
}

/**
 * Opens a portal page inside `container`: asks the proxy for the opening parameters, loads
 * the script (once per page), calls `open`, and refreshes the usages when a workflow completes.
 */
export async function embedPortal(options: EmbedPortalOptions): Promise<PortalResponse> {
  const { request, signal } = options;
  const endpoint = resolveEndpoint(options.endpoint);
  const portal = await getProxyClient(endpoint).getPortal(request, signal);
  const api = await loadPortalScript(
    followableOrThrow(portal.scriptUrl, [portal.hostedOrigin]),
    options,
  );
  if (signal?.aborted) throw new BillingError('aborted', 'Aborted');

  const container =
    typeof options.container === 'function' ? options.container() : options.container;
  const target = options.eventTarget ?? container;
  const page = request.page;
  // An undefined signal is as good as none.
  const listening = { signal };
  container.addEventListener(
    'service-portal:ready',
    () => target.dispatchEvent(new BillingPortalReadyEvent({ page })),
    listening,
  );
  container.addEventListener(
    'service-portal:complete',
    (event) => {
      const detail = (event as CustomEvent<{ workflow?: unknown } | null>).detail;
      const workflow = (
        typeof detail?.workflow === 'string' ? detail.workflow : 'unknown'
      ) as PortalWorkflow;
      getUsageStore(endpoint)
        .refresh()
        .catch(() => undefined);
      target.dispatchEvent(new BillingPortalCompleteEvent({ page, workflow }));
    },
    listening,
  );
  container.replaceChildren();
  // What the page's CSP blocks of the portal (the script's calls to the service, the hosted
  // page's frame) is told as such: during the opening, as its error; after, to onBlocked.
  let opened = false;
  const watch = watchViolations([portal.hostedOrigin, portal.scriptUrl], {
    ...(signal ? { signal } : {}),
    onViolation: (violation) => {
      if (opened) options.onBlocked?.(cspRefusal(violation));
    },
  });
  const blockedOr = async (error: BillingError): Promise<BillingError> => {
    await afterViolationReports();
    const violation = watch.violations[0];
    watch.stop();
    return violation ? cspRefusal(violation) : error;
  };
  let outcome: unknown;
  try {
    // The container carries the page's look (its inherited color-scheme and accent-color): a
    // portal script that can, draws the hosted page in it.
    outcome = await api.open(portal.params, { containerId: container.id });
  } catch (cause) {
    throw await blockedOr(new BillingError('portal-open-failed', 'Portal open failed', { cause }));
  }
  // The sandbox's script (like others) answers { opened: false, error } for a refused opening;
  // a script that answers nothing is taken at its word.
  const refused = outcome as { opened?: unknown; error?: { code?: unknown; message?: unknown } };
  if (refused?.opened === false) {
    const { code, message } = refused.error ?? {};
    throw await blockedOr(
      new BillingError(
        typeof code === 'string' ? code : 'portal-open-failed',
        typeof message === 'string' ? message : 'Portal refused',
      ),
    );
  }
  const early = watch.violations[0];
  if (early) {
    watch.stop();
    throw cspRefusal(early);
  }
  opened = true;
  if (!signal) setTimeout(watch.stop, 10_000);
  return portal;
}
