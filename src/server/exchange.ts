import type * as Undici from 'undici';

// How one call reaches the billing service and its answer is read whole. On Node, the default is
// undici's request API on a keep-alive Agent: Node 20's global fetch costs about 280 µs more CPU
// per call (measured against the sandbox: 388 against 112 µs per call, the sandbox's share
// included), more than everything else the proxy does for a request. Elsewhere (Bun, Deno,
// workers), and whenever the host passes its own `fetch`, calls go through fetch.

/** One call to the service. */
export interface ExchangeRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body: string | null;
  /** Aborted when the call's time is up (the body included). */
  signal: AbortSignal;
}

/** The service's answer, read whole. */
export interface UpstreamAnswer {
  status: number;
  text: string;
  /** The answer's `Date` header: the service's own clock, to the second. */
  date: string | null;
}

export type Exchange = (request: ExchangeRequest) => Promise<UpstreamAnswer>;

/** Calls through a fetch function: the host's, or the runtime's where undici is not there. */
export function fetchExchange(fetchFunction: typeof fetch): Exchange {
  return async ({ url, method, headers, body, signal }) => {
    const response = await fetchFunction(url, { method, headers, body, signal, redirect: 'error' });
    return {
      status: response.status,
      text: await response.text(),
      date: response.headers.get('date'),
    };
  };
}

type Undici = typeof Undici;

/**
 * undici's request API on its own keep-alive Agent, loaded on the first call; the runtime's
 * fetch where it cannot be loaded. Redirects are not followed (a 3xx is an answer, refused).
 */
export function defaultExchange(): Exchange {
  let loading: Promise<Exchange> | undefined;
  const load = async (): Promise<Exchange> => {
    let undici: Undici;
    try {
      undici = await import('undici');
    } catch {
      return fetchExchange((input, init) => globalThis.fetch(input, init));
    }
    const dispatcher = new undici.Agent({ keepAliveTimeout: 30_000 });
    return async ({ url, method, headers, body, signal }) => {
      const response = await undici.request(url, { method, headers, body, signal, dispatcher });
      const date = response.headers.date;
      return {
        status: response.statusCode,
        text: await response.body.text(),
        date: typeof date === 'string' ? date : null,
      };
    };
  };
  return async (request) => (await (loading ??= load()))(request);
}
