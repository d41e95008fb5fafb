import { getBillingConfig } from './config.js';
import {
  afterViolationReports,
  cspRefusal,
  trustedScriptUrl,
  trustedTypesRefusal,
  watchViolations,
} from './csp.js';
import { BillingError } from './errors.js';
import type { PortalOpenParams } from '../contract/resources.js';

/** What the service's portal script puts on `window`. */
export interface ServicePortalApi {
  /** Some scripts answer a promise of `{ opened, error? }`; others nothing. */
  open(params: PortalOpenParams, options?: { containerId?: string }): unknown;
}

export interface LoadPortalScriptOptions {
  /** CSP nonce for the script element. */
  nonce?: string;
  /** Give up after this long (default: the page configuration's `portalScriptTimeoutMs`). */
  timeoutMs?: number;
  /** Name of the global the script defines (unset or empty: the configured `portalGlobal`). */
  globalName?: string;
}

const loading = new Map<string, Promise<ServicePortalApi>>();

function portalGlobal(name: string): ServicePortalApi | null {
  const candidate = (globalThis as Record<string, unknown>)[name] as
    Partial<ServicePortalApi> | undefined;
  return candidate && typeof candidate.open === 'function' ? (candidate as ServicePortalApi) : null;
}

/**
 * Loads the portal script once per page and URL, whatever the number of callers. A failed
 * or timed-out load is forgotten, so calling again retries it.
 */
export function loadPortalScript(
  url: string,
  options: LoadPortalScriptOptions = {},
): Promise<ServicePortalApi> {
  const config = getBillingConfig();
  // An empty name (`script-global=""`) is no name, as an empty nonce is no nonce.
  const globalName = options.globalName || config.portalGlobal;
  const key = `${globalName} ${url}`;
  const already = loading.get(key);
  if (already) return already;
  const present = portalGlobal(globalName);
  if (present) return Promise.resolve(present);

  const timeoutMs = options.timeoutMs ?? config.portalScriptTimeoutMs;
  const promise = new Promise<ServicePortalApi>((resolve, reject) => {
    const script = document.createElement('script');
    let settled = false;
    // A refusal of the page's CSP is told as such (csp-blocked, with the directive to fix).
    const watch = watchViolations([url], {
      onViolation: (violation) => fail(cspRefusal(violation)),
    });
    const fail = (error: BillingError) => {
      if (settled) return;
      settled = true;
      watch.stop();
      clearTimeout(timer);
      script.remove();
      loading.delete(key);
      reject(error);
    };
    const timer = setTimeout(
      () => fail(new BillingError('timeout', `Portal script timeout (${timeoutMs} ms)`)),
      timeoutMs,
    );
    try {
      // Async already: a script inserted from code does not block the parser. Under Trusted
      // Types the address goes through the library's named policy.
      script.src = trustedScriptUrl(url);
    } catch (cause) {
      fail(trustedTypesRefusal(url, cause));
      return;
    }
    if (options.nonce) script.nonce = options.nonce;
    script.addEventListener('load', () => {
      if (settled) return;
      const api = portalGlobal(globalName);
      if (!api) {
        fail(new BillingError('portal-script-invalid', `No ${globalName}.open`));
        return;
      }
      settled = true;
      watch.stop();
      clearTimeout(timer);
      resolve(api);
    });
    script.addEventListener('error', () => {
      // The CSP's report of a blocked script may come just after the error it caused.
      void afterViolationReports().then(() =>
        fail(new BillingError('portal-script-failed', 'Portal script failed')),
      );
    });
    document.head.append(script);
  });
  loading.set(key, promise);
  return promise;
}
