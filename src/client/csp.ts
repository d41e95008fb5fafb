import { BillingError } from './errors.js';

// What the page's Content-Security-Policy and Trusted Types refuse to the portal, told as what
// it is (a setup the integrator can fix, with the directive to add), not as a network failure.

/** The Trusted Types policy the portal script's address goes through; a page allows it by name. */
export const TRUSTED_TYPES_POLICY = 'billing-elements';

interface ScriptUrlPolicy {
  createScriptURL(url: string): unknown;
}

interface TrustedTypesFactory {
  createPolicy(name: string, rules: { createScriptURL(url: string): string }): ScriptUrlPolicy;
}

/** The policy once created; null once the page refused it (then plain strings are tried). */
let policy: ScriptUrlPolicy | null | undefined;

/**
 * What to assign to a script element's `src`: under Trusted Types, a TrustedScriptURL made by the
 * library's own named policy (no default policy needed); elsewhere, the string. The policy passes
 * on only http(s) addresses, and the portal loader gives it only addresses it already checked
 * (the page's origin, the service's or a trusted one).
 */
export function trustedScriptUrl(url: string): string {
  const factory = (globalThis as { trustedTypes?: TrustedTypesFactory }).trustedTypes;
  if (!factory?.createPolicy) return url;
  if (policy === undefined) {
    try {
      policy = factory.createPolicy(TRUSTED_TYPES_POLICY, {
        createScriptURL(address: string) {
          const resolved = new URL(address, document.baseURI);
          if (resolved.protocol !== 'https:' && resolved.protocol !== 'http:')
            throw new TypeError(`Not an http(s) URL: ${address}`);
          return resolved.href;
        },
      });
    } catch {
      // The page's `trusted-types` directive does not name the policy: a plain string still
      // works where Trusted Types are not required.
      policy = null;
    }
  }
  // A TrustedScriptURL stands where the DOM takes a string.
  return (policy ? policy.createScriptURL(url) : url) as string;
}

/** The error and console line for a script address the page's Trusted Types refused. */
export function trustedTypesRefusal(url: string, cause: unknown): BillingError {
  return new BillingError(
    'trusted-types-blocked',
    `[billing-elements] the page's Trusted Types refused the portal script's address (${url}). ` +
      `Allow the library's policy: add "${TRUSTED_TYPES_POLICY}" to the trusted-types directive ` +
      `of the Content-Security-Policy (trusted-types ${TRUSTED_TYPES_POLICY}; keep your own names).`,
    { cause },
  );
}

/** A CSP violation the portal met: the directive and the blocked address. */
export interface PortalViolation {
  directive: string;
  blocked: string;
}

function originOf(address: string): string | null {
  try {
    return new URL(address, document.baseURI).origin;
  } catch {
    return null;
  }
}

/** The directive to add an origin to, from the one the browser reports. */
function directiveToFix(directive: string): string {
  if (directive === 'script-src-elem') return 'script-src';
  if (directive === 'child-src') return 'frame-src';
  return directive;
}

/** The error and console line for a CSP violation: which directive needs which origin. */
export function cspRefusal({ directive, blocked }: PortalViolation): BillingError {
  const origin = originOf(blocked) ?? blocked;
  const fix = directiveToFix(directive);
  const what =
    fix === 'script-src'
      ? 'the portal script'
      : fix === 'frame-src'
        ? "the portal's hosted page"
        : "the portal script's call to the billing service";
  const nonce = fix === 'script-src' ? " (or give <billing-portal> the page's nonce)" : '';
  return new BillingError(
    'csp-blocked',
    `[billing-elements] the page's Content-Security-Policy blocked ${what} (${blocked}, ${directive}). ` +
      `Add ${origin} to ${fix}${nonce}.`,
  );
}

/**
 * Listens for the page's CSP violations that concern `origins` until `signal` aborts (or `stop`
 * is called): each is recorded, and handed to `onViolation` when given.
 */
export function watchViolations(
  origins: readonly string[],
  options: { signal?: AbortSignal; onViolation?: (violation: PortalViolation) => void } = {},
): { violations: PortalViolation[]; stop(): void } {
  const violations: PortalViolation[] = [];
  const wanted = new Set(origins.map(originOf).filter((origin) => origin !== null));
  const listener = (event: Event) => {
    const { blockedURI, effectiveDirective } = event as SecurityPolicyViolationEvent;
    const origin = originOf(blockedURI);
    if (!origin || !wanted.has(origin)) return;
    const violation = { directive: effectiveDirective, blocked: blockedURI };
    violations.push(violation);
    options.onViolation?.(violation);
  };
  // Captured at the document: the event of an element in a shadow root reaches it too.
  document.addEventListener('securitypolicyviolation', listener, true);
  const stop = () => document.removeEventListener('securitypolicyviolation', listener, true);
  options.signal?.addEventListener('abort', stop, { once: true });
  return { violations, stop };
}

/** The violation report may come a task after the failure it caused: waits one. */
export function afterViolationReports(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 50));
}
