import {
  isDurableObjectNamespace,
  type DurableObjectNamespaceLike,
  type DurableObjectStateLike,
  type DurableObjectStorageLike,
  type WorkerWebSocket,
} from '../durable-objects.js';
import {
  isLaterSignal,
  nextSignalId,
  signalIdAt,
  type BillingSignal,
  type SignalBus,
} from './signals.js';

// Signals on Cloudflare Workers: a notification received by one isolate, or a purchase applied
// on one, reaches the customer's pages whose event streams are open on any other isolate.
//
// One Durable Object per customer (`idFromName(customer)`), of the class BillingSignalsObject.
// The pages' event streams stay where they are, in the Worker's isolates (a Worker waiting on an
// open stream costs no CPU time); each stream, in its own request, holds a WebSocket to its
// customer's object, which the object accepts with the hibernation API: an object with only
// idle sockets is evicted from memory and billed nothing until a signal wakes it. Publishing is
// one request to the customer's object, which gives the signal its id (so a customer's ids are
// unique and in order), stores it as the customer's latest, and sends it down every socket.
//
// Why not one connection per isolate: a Worker's I/O (a socket, a stream) belongs to the request
// that opened it, so a socket held for the whole isolate would die with its first request. Two
// streams of one customer on one isolate hold two sockets and hear each signal twice: the bus
// delivers a signal id once per isolate.
//
// Its limits, by design:
// - An isolate hears a customer's signals only while one of that customer's pages has a stream
//   open on it (and those it publishes itself). The proxy's short caches of other isolates
//   (entitlement checks, the running state of a subscription: 10 s) expire on their own.
// - A socket that closes (the object restarted, a deploy) ends the page's stream; the page
//   reconnects (`retry:`) and the object sends it the latest signal it missed, if any.
// - Ids are made from the object's clock: if the object moves to a machine whose clock is
//   behind, a page resuming with `Last-Event-ID` may be told of a signal once more (a re-read).

/** Signal ids an isolate remembers having delivered, to deliver each once. */
const REMEMBERED_SIGNALS = 1_000;
/**
 * A page that opens its stream without `Last-Event-ID` gets any signal made up to this long
 * before its stream opened: those published while the stream's socket was connecting, and
 * those an object's clock put slightly earlier than the isolate's.
 */
const CONNECT_MARGIN_MS = 2_000;
/** Where the object keeps the customer's latest signal id. */
const LATEST = 'latest';

type WebSocketPairConstructor = new () => { 0: WorkerWebSocket; 1: WorkerWebSocket };

/**
 * The Durable Object class behind `createDurableObjectSignalBus`. Export it from the Worker's
 * entry module under the class name that wrangler.jsonc binds:
 * `export { BillingSignalsObject } from 'billing-elements/server/worker'`.
 */
export class BillingSignalsObject {
  readonly #state: DurableObjectStateLike;
  readonly #storage: DurableObjectStorageLike;

  constructor(state: DurableObjectStateLike, _env?: unknown) {
    this.#state = state;
    this.#storage = state.storage;
  }

  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === '/publish' && request.method === 'POST') return this.#publish();
    if (url.pathname === '/follow' && request.headers.get('upgrade')?.toLowerCase() === 'websocket')
      return this.#follow(url.searchParams.get('after'));
    return Response.json(
      { error: 'Expected POST /publish, or a WebSocket upgrade of /follow' },
      { status: 400 },
    );
  }

  /** The isolates never write to their sockets: any message is ignored. */
  webSocketMessage(): void {}

  /** The isolate closed its end (its page went away): close this one too. */
  webSocketClose(socket: WorkerWebSocket, code: number): void {
    try {
      socket.close(code === 1005 || code === 1006 ? 1000 : code, 'closed');
    } catch {
      // Already closed.
    }
  }

  webSocketError(): void {}

  async #publish(): Promise<Response> {
    const id = nextSignalId();
    await this.#storage.put(LATEST, id);
    const message = JSON.stringify({ id });
    for (const socket of this.#state.getWebSockets()) {
      try {
        socket.send(message);
      } catch {
        // A socket closing meanwhile: its stream ends and its page reconnects.
      }
    }
    return Response.json({ id });
  }

  async #follow(after: string | null): Promise<Response> {
    const Pair = (globalThis as { WebSocketPair?: WebSocketPairConstructor }).WebSocketPair;
    if (Pair === undefined)
      return Response.json({ error: 'WebSocketPair is not available here' }, { status: 500 });
    const { 0: isolateEnd, 1: objectEnd } = new Pair();
    this.#state.acceptWebSocket(objectEnd);
    // What the page missed while it was away (or while this socket was connecting).
    const latest = await this.#storage.get<string>(LATEST);
    if (after !== null && latest !== undefined && isLaterSignal(latest, after))
      objectEnd.send(JSON.stringify({ id: latest }));
    return new Response(null, { status: 101, webSocket: isolateEnd } as ResponseInit);
  }
}

/**
 * A signal bus every isolate of a Worker shares, on Durable Objects of the class
 * `BillingSignalsObject`: `createDurableObjectSignalBus(env.BILLING_SIGNALS)`, where
 * `BILLING_SIGNALS` is the namespace binding of that class in wrangler.jsonc. Use it with the
 * proxy's event streams (`events`, on by default): see the header of this module for how it
 * works and its limits.
 */
export function createDurableObjectSignalBus(namespace: DurableObjectNamespaceLike): SignalBus {
  if (!isDurableObjectNamespace(namespace)) {
    throw new TypeError(
      'createDurableObjectSignalBus needs a Durable Object namespace binding (env.BILLING_SIGNALS, with idFromName and get): bind the class BillingSignalsObject in wrangler.jsonc "durable_objects"',
    );
  }
  const listeners = new Set<(signal: BillingSignal) => void>();
  /** The stop function of every stream following its customer here. */
  const following = new Set<() => void>();
  /** `id customer` of the signals delivered lately, oldest first. */
  const delivered = new Set<string>();
  const objectOf = (customer: string) => namespace.get(namespace.idFromName(customer));

  function deliver(signal: BillingSignal): void {
    const seen = `${signal.id} ${signal.customer}`;
    if (delivered.has(seen)) return;
    delivered.add(seen);
    if (delivered.size > REMEMBERED_SIGNALS) delivered.delete(delivered.values().next().value!);
    for (const listener of listeners) listener(signal);
  }

  return {
    async publish(customer) {
      const response = await objectOf(customer).fetch('https://billing-signals/publish', {
        method: 'POST',
      });
      if (!response.ok)
        throw new Error(`the signals object answered ${response.status}: ${await response.text()}`);
      const { id } = (await response.json()) as { id: string };
      deliver({ customer, id });
    },

    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    follow(customer, lastEventId, lost) {
      let socket: WorkerWebSocket | undefined;
      let stopped = false;
      const stop = () => {
        if (stopped) return;
        stopped = true;
        following.delete(stop);
        try {
          socket?.close(1000, 'stream ended');
        } catch {
          // Already closed.
        }
      };
      const fail = (reason: string) => {
        if (stopped) return;
        stop();
        lost(reason);
      };
      following.add(stop);
      const after = lastEventId ?? signalIdAt(Date.now() - CONNECT_MARGIN_MS);
      objectOf(customer)
        .fetch(`https://billing-signals/follow?after=${encodeURIComponent(after)}`, {
          headers: { upgrade: 'websocket' },
        })
        .then(async (response) => {
          const opened = (response as { webSocket?: WorkerWebSocket | null }).webSocket;
          if (opened === undefined || opened === null)
            throw new Error(`no WebSocket (${response.status} ${await response.text()})`);
          opened.accept();
          socket = opened;
          if (stopped) {
            opened.close(1000, 'stream ended');
            return;
          }
          opened.addEventListener('message', ({ data }) => {
            let id: unknown;
            try {
              id = (JSON.parse(String(data)) as { id?: unknown }).id;
            } catch {
              return;
            }
            if (typeof id === 'string') deliver({ customer, id });
          });
          opened.addEventListener('close', () => fail('the signals object closed its socket'));
          opened.addEventListener('error', () => fail('the socket to the signals object failed'));
        })
        .catch((error: unknown) => fail(`could not reach the signals object: ${String(error)}`));
      return stop;
    },

    async close() {
      listeners.clear();
      for (const stop of [...following]) stop();
    },
  };
}
