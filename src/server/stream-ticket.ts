// Stream tickets: how a page identified by a bearer token opens the event stream. EventSource
// cannot send an Authorization header, so the page first asks `POST {basePath}/stream-ticket`
// with its token, then opens `GET {basePath}/events?ticket=<ticket>`.
//
// A ticket is `<expiry>.<customer>.<signature>`: the expiry in Unix seconds, the customer
// reference in base64url and an HMAC-SHA256 of both under a key the proxy derives from its
// portal secret (so every instance of the proxy agrees without a new secret, and the derived key
// never leaves the server). It lives TICKET_SECONDS and opens one stream: its signature is
// remembered in the idempotency store, shared by the instances, until it expires. A reconnection
// asks for a fresh ticket.
import { ProxyError } from './errors.js';
import type { IdempotencyStore } from './idempotency/store.js';

/** How long a ticket may be used to open a stream, in seconds. */
export const TICKET_SECONDS = 60;

export interface StreamTicket {
  ticket: string;
  /** When it stops opening streams (ISO 8601). */
  expiresAt: string;
}

export interface StreamTickets {
  /** A ticket for the customer's event stream. */
  issue(reference: string): Promise<StreamTicket>;
  /** The customer of a ticket, once: throws 401 token-expired or token-invalid. */
  redeem(ticket: string): Promise<string>;
}

const encoder = new TextEncoder();
/** The label the ticket key is derived under, so that it differs from every other use of the secret. */
const KEY_LABEL = 'billing-elements stream ticket v1';

export function createStreamTickets(
  portalSecret: string,
  store: IdempotencyStore,
  now: () => number = Date.now,
): StreamTickets {
  let key: Promise<CryptoKey> | undefined;
  const ticketKey = () =>
    (key ??= (async () => {
      const secret = await hmacKey(encoder.encode(portalSecret), ['sign']);
      const derived = await crypto.subtle.sign('HMAC', secret, encoder.encode(KEY_LABEL));
      return hmacKey(new Uint8Array(derived), ['sign', 'verify']);
    })());

  return {
    async issue(reference) {
      const expires = Math.floor(now() / 1000) + TICKET_SECONDS;
      const signed = `${expires}.${toBase64Url(encoder.encode(reference))}`;
      const signature = await crypto.subtle.sign('HMAC', await ticketKey(), encoder.encode(signed));
      return {
        ticket: `${signed}.${toBase64Url(new Uint8Array(signature))}`,
        expiresAt: new Date(expires * 1000).toISOString(),
      };
    },
    async redeem(ticket) {
      const match = /^(\d{1,12})\.([A-Za-z0-9_-]{1,1400})\.([A-Za-z0-9_-]{43})$/.exec(ticket);
      if (match === null) throw ticketInvalid();
      const [, expires = '', customer = '', signature = ''] = match;
      const valid = await crypto.subtle.verify(
        'HMAC',
        await ticketKey(),
        fromBase64Url(signature),
        encoder.encode(`${expires}.${customer}`),
      );
      if (!valid) throw ticketInvalid();
      const remainingMs = Number(expires) * 1000 - now();
      if (remainingMs <= 0)
        throw new ProxyError(401, 'token-expired', 'The stream ticket has expired: get a new one.');
      if (!(await store.setIfAbsent(`stream-ticket:${signature}`, '1', remainingMs + 1000)))
        throw new ProxyError(401, 'token-invalid', 'The stream ticket was already used.');
      return new TextDecoder().decode(fromBase64Url(customer));
    },
  };
}

function ticketInvalid(): ProxyError {
  return new ProxyError(401, 'token-invalid', 'The stream ticket is not valid.');
}

function hmacKey(raw: Uint8Array<ArrayBuffer>, usages: KeyUsage[]): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, usages);
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}
