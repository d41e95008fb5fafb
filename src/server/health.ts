import { isMissing } from './context.js';
import { jsonResponse } from './http.js';
import type { IdempotencyStore } from './idempotency/store.js';
import type { ProxyLogger } from './options.js';
import type { UpstreamClient } from './upstream.js';

// GET {basePath}/health: whether this instance can do its work, for a load balancer or an
// orchestrator's readiness probe. Two checks: the idempotency store answers a read, and the
// billing service answers an authenticated read (the usages of a customer that does not exist:
// "no such customer" proves the service is reachable and accepts the credentials). The answer
// names the checks and their result only: no key, no URL, no customer, no error text (those go
// to the logger). No identify: a probe has no session.

/** A customer reference no business uses, read by the service check. */
const PROBE_CUSTOMER = 'billing-elements-health-probe';
/** The key the store check reads (never written). */
const PROBE_KEY = 'health:probe';
/**
 * Probes within this long share one run of the checks: the route needs no session, so a flood
 * of probes must not become a flood of calls to the service.
 */
export const HEALTH_CACHE_MS = 1_000;

type CheckResult = 'ok' | 'failed';

interface HealthReport {
  status: 'ok' | 'unavailable';
  checks: { store: CheckResult; service: CheckResult };
}

export interface HealthCheck {
  /** The answer to a probe (HEAD: the same status, no body). */
  respond(request: Request): Promise<Response>;
}

export function createHealthCheck(
  store: IdempotencyStore,
  upstream: UpstreamClient,
  timeoutMs: number,
  logger: ProxyLogger,
): HealthCheck {
  let latest: { at: number; report: Promise<HealthReport> } | undefined;

  /** Whether `operation` succeeds within timeoutMs; why not goes to the logger. */
  async function check(name: string, operation: () => Promise<unknown>): Promise<CheckResult> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([operation(), timeout]);
      return 'ok';
    } catch (error) {
      logger({
        level: 'warn',
        event: 'health-check-failed',
        message: `Health check "${name}" failed: ${error instanceof Error ? error.message : String(error)}`,
        check: name,
      });
      return 'failed';
    } finally {
      clearTimeout(timer);
    }
  }

  async function run(): Promise<HealthReport> {
    const [storeResult, serviceResult] = await Promise.all([
      check('store', () => store.get(PROBE_KEY)),
      check('service', () =>
        upstream.usages(PROBE_CUSTOMER).catch((error: unknown) => {
          if (!isMissing(error)) throw error;
        }),
      ),
    ]);
    return {
      status: storeResult === 'ok' && serviceResult === 'ok' ? 'ok' : 'unavailable',
      checks: { store: storeResult, service: serviceResult },
    };
  }

  return {
    async respond(request) {
      const now = Date.now();
      if (latest === undefined || now - latest.at >= HEALTH_CACHE_MS)
        latest = { at: now, report: run() };
      const report = await latest.report;
      const status = report.status === 'ok' ? 200 : 503;
      if (request.method === 'HEAD')
        return new Response(null, { status, headers: { 'cache-control': 'no-store' } });
      return jsonResponse(status, report);
    },
  };
}

/** The probe's answer while the proxy shuts down: the load balancer sends nothing more. */
export function shuttingDownHealth(request: Request): Response {
  if (request.method === 'HEAD')
    return new Response(null, { status: 503, headers: { 'cache-control': 'no-store' } });
  return jsonResponse(503, { status: 'shutting-down' });
}
