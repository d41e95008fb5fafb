// How one call reaches the billing service and its answer is read whole, within a time limit.
// Everywhere, the runtime's `fetch` with standard options (`redirect: 'manual'`, an AbortSignal
// that times out the whole call, the answer's body included): Bun, Deno, Cloudflare Workers and
// Node alike. On Node only, and only when the host passes no `fetch` of its own, the same call
// goes through node:http on a keep-alive Agent instead (exchange-node.ts): Node 20's global
// fetch costs several times the CPU per call (see docs/proxy.md, "Performance").

/** One call to the service. */
export interface ExchangeRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body: string | null;
  /** The time the whole call may take, the answer's body included. */
  timeoutMs: number;
}

/** The service's answer, read whole. */
export interface UpstreamAnswer {
  status: number;
  text: string;
  /** The answer's `Date` header: the service's own clock, to the second. */
  date: string | null;
}

export type Exchange = (request: ExchangeRequest) => Promise<UpstreamAnswer>;

/** The call's time limit ran out (before or during the answer's body). */
export class ExchangeTimeoutError extends Error {
  override readonly name = 'ExchangeTimeoutError';
  constructor(timeoutMs: number) {
    super(`no whole answer within ${timeoutMs} ms`);
  }
}

/**
 * Calls through a fetch function: the host's, or the runtime's. Redirects are not followed (a
 * 3xx is an answer, which the caller refuses); `manual` is the one value every runtime accepts
 * besides `follow` (Cloudflare Workers refuses `error`).
 */
export function fetchExchange(fetchFunction: typeof fetch): Exchange {
  return async ({ url, method, headers, body, timeoutMs }) => {
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const response = await fetchFunction(url, {
        method,
        headers,
        body,
        signal,
        redirect: 'manual',
      });
      return {
        status: response.status,
        text: await response.text(),
        date: response.headers.get('date'),
      };
    } catch (error) {
      if (signal.aborted) throw new ExchangeTimeoutError(timeoutMs);
      throw error;
    }
  };
}
