import { getBillingConfig } from './config.js';
import { BillingUpdatedEvent } from './events.js';

// Live updates: the proxy's event stream (GET {endpoint}/events) says "this customer's billing
// changed", and the page re-reads what it shows. One stream per endpoint for the whole browser
// where it can be shared: the tab that holds a Web Lock named after the endpoint opens the
// EventSource, and its usage store's refresh reaches the other tabs through the store's own
// BroadcastChannel. Without Web Locks each tab opens its own. A stream is open only while an
// element (or the host) listens to the endpoint's usage store.
//
// A page identified by a token (configureBilling({ token })) cannot give it to EventSource, which
// sends no headers: it trades the token for a stream ticket (POST {endpoint}/stream-ticket, a
// single-use ticket that lives a minute) and opens {endpoint}/events?ticket=..., without cookies.
// Every reconnection asks for a fresh ticket, so this code reopens the stream itself.

/** Reconnection delays after the stream fails, doubling up to the last. */
const BACKOFF_MS = [1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 60_000];
/** Failures in a row before the first open after which the page stops trying (no such route). */
const GIVE_UP_AFTER = 4;

interface Live {
  listeners: Set<() => void>;
  stop: () => void;
}

const lives = new Map<string, Live>();

/** The event stream's address: the endpoint (a path or an absolute URL) plus /events. */
function streamUrl(endpoint: string): URL {
  return new URL(`${endpoint.replace(/\/+$/, '')}/events`, document.baseURI);
}

/**
 * Calls `onSignal` each time the signed-in customer's billing changes (while at least one
 * listener is subscribed for the endpoint); returns the function that unsubscribes.
 */
export function subscribeLive(endpoint: string, onSignal: () => void): () => void {
  if (typeof EventSource === 'undefined' || typeof document === 'undefined') return () => {};
  let live = lives.get(endpoint);
  if (live === undefined) {
    const listeners = new Set<() => void>();
    const signal = () => {
      for (const listener of [...listeners]) listener();
    };
    live = { listeners, stop: start(endpoint, signal) };
    lives.set(endpoint, live);
  }
  live.listeners.add(onSignal);
  return () => {
    const current = lives.get(endpoint);
    if (current === undefined || !current.listeners.delete(onSignal)) return;
    if (current.listeners.size > 0) return;
    lives.delete(endpoint);
    current.stop();
  };
}

/** Opens the stream (in the tab that holds the endpoint's lock, where locks exist); returns stop. */
function start(endpoint: string, signal: () => void): () => void {
  const locks = (navigator as Navigator & { locks?: LockManager }).locks;
  if (locks === undefined) return connect(endpoint, signal);
  const released = new AbortController();
  let disconnect: (() => void) | undefined;
  locks
    .request(`billing-elements:events:${endpoint}`, { signal: released.signal }, () => {
      // Granted just as this tab stopped listening: the abort below has come and gone, so the
      // lock is given back at once rather than held, with a stream nobody hears, forever.
      if (released.signal.aborted) return undefined;
      disconnect = connect(endpoint, signal);
      // Held until this tab stops listening: then the next waiting tab takes the stream.
      return new Promise<void>((resolve) =>
        released.signal.addEventListener('abort', () => resolve(), { once: true }),
      );
    })
    .catch(() => {
      // Aborted while waiting for the lock: this tab never held the stream.
    });
  return () => {
    disconnect?.();
    released.abort();
  };
}

/** One EventSource, reopened with backoff when it fails; returns the function that closes it. */
function connect(endpoint: string, signal: () => void): () => void {
  const url = streamUrl(endpoint);
  const crossOrigin = url.origin !== location.origin;
  let source: EventSource | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  let everOpened = false;
  let stopped = false;

  const open = async () => {
    const { token } = getBillingConfig();
    const address = token ? await (await import('./token.js')).ticketAddress(endpoint, url) : url;
    if (stopped) return;
    source = new EventSource(address, { withCredentials: crossOrigin && !token });
    source.addEventListener('open', () => {
      // Reopened after a failure: what changed meanwhile may be unknown, so read it again.
      if (everOpened && failures > 0) signal();
      everOpened = true;
      failures = 0;
    });
    source.addEventListener('billing-changed', () => signal());
    source.addEventListener('error', () => {
      // A ticket opens one stream: the browser's own reconnection would reuse it.
      if (token) source?.close();
      // A stream the browser reconnects by itself stays CONNECTING; CLOSED means it gave up
      // (an error status, a network failure at the start): reopen with backoff.
      if (source?.readyState !== EventSource.CLOSED || stopped) return;
      failures += 1;
      if (!everOpened && failures >= GIVE_UP_AFTER) {
        console.warn(
          `[billing-elements] live updates are off: ${url.href} did not open after ${failures} tries (is the proxy's events route enabled?)`,
        );
        return;
      }
      const delay = BACKOFF_MS[Math.min(failures, BACKOFF_MS.length) - 1] ?? 60_000;
      timer = setTimeout(open, delay * (0.75 + Math.random() / 2));
    });
  };
  void open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    source?.close();
  };
}

/** Tells the page (and the host app) that billing was re-read after a live signal. */
export function announceUpdate(endpoint: string): void {
  document.dispatchEvent(new BillingUpdatedEvent({ endpoint }));
}
