// Token identity in the browser (configureBilling({ token })), loaded only by a page that sets a
// token: the Authorization header instead of cookies, one refresh and retry when the proxy says
// the token expired, and the stream ticket that stands for the token on the event stream
// (EventSource sends no headers).
import type { BillingTokenSource } from './config.js';
import { getProxyClient } from './proxy-client.js';

type Token = string | null | undefined;

/** The page's token, as last asked of the token source. */
let last: { source: BillingTokenSource; value: Promise<Token> } | undefined;

/**
 * The token to send: the last one asked, unless the source changed or that one (`stale`) was
 * refused as expired. A source that fails reads as signed out and is asked again next time.
 */
function tokenOf(source: BillingTokenSource, stale?: Promise<Token>): Promise<Token> {
  if (last?.source !== source || last.value === stale) {
    const value = Promise.resolve()
      .then(source)
      .catch((error: unknown) => {
        console.error('[billing-elements] configureBilling token() failed:', error);
        return null;
      });
    last = { source, value };
    void value.then((token) => {
      if (!token && last?.value === value) last = undefined;
    });
  }
  return last.value;
}

/**
 * fetch with the page's token and without cookies (a page on another site must not depend on
 * third-party ones). An expired token was refused before the proxy did anything: a new one is
 * asked for and the same request sent once more, body included (a purchase keeps its
 * idempotency key, which is in the body).
 */
export async function fetchWithToken(
  source: BillingTokenSource,
  url: string,
  init: RequestInit,
): Promise<Response> {
  const send = async (token: Token) =>
    fetch(url, {
      ...init,
      credentials: 'omit',
      headers: { ...init.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
  const asked = tokenOf(source);
  const response = await send(await asked);
  if (response.status !== 401) return response;
  const answer = (await response
    .clone()
    .json()
    .catch(() => null)) as { code?: unknown } | null;
  return answer?.code === 'token-expired' ? send(await tokenOf(source, asked)) : response;
}

/**
 * The event stream's address with a fresh stream ticket (single-use, one minute). Without one
 * (signed out, the proxy unreachable), the bare address: the stream's refusal then takes the
 * usual way of a failed stream, reopened with backoff.
 */
export async function ticketAddress(endpoint: string, address: URL): Promise<URL> {
  try {
    const { ticket } = await getProxyClient(endpoint).request<{ ticket: string }>(
      '/stream-ticket',
      undefined,
      {},
    );
    const withTicket = new URL(address);
    withTicket.searchParams.set('ticket', ticket);
    return withTicket;
  } catch {
    return address;
  }
}
