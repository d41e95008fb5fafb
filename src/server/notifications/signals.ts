import { markPerProcess } from '../runtime.js';

// "This customer's billing changed": the one thing the proxy tells open pages. A signal carries
// the customer's reference and an id, never state: a page that receives it re-reads what it
// shows. Signals go through a bus so that every proxy instance behind a load balancer hears
// every signal, whichever instance received the service's notification (or applied a purchase).

/** One signal: whose billing changed, and an id that orders signals (ms since the epoch, then a count). */
export interface BillingSignal {
  customer: string;
  id: string;
}

export interface SignalBus {
  /** Tells every instance (this one included) that the customer's billing changed. */
  publish(customer: string): Promise<void>;
  /** Calls `listener` with every signal published on the bus; returns the unsubscribe. */
  subscribe(listener: (signal: BillingSignal) => void): () => void;
  /** Stops listening to the bus (a Redis bus unsubscribes its channel). */
  close(): Promise<void>;
  /**
   * For a bus that delivers a customer's signals only where they are followed (the one on
   * Durable Objects); buses that hear every signal anyway (memory, Redis) leave it out. The
   * event hub calls it when a page's stream for `customer` opens on this instance, inside that
   * stream's request, with the page's `Last-Event-ID`: from then on the customer's signals reach
   * this instance's subscribers, until the returned function is called (the stream ended). The
   * bus calls `lost` (later, never from within `follow`) when it can no longer deliver them;
   * the hub then ends the stream, and the page reconnects.
   */
  follow?(customer: string, lastEventId: string | null, lost: (reason: string) => void): () => void;
}

let lastTime = 0;
let sequence = 0;

/**
 * A new signal id: the time in ms, then a count within that ms, both zero-padded so that ids of
 * the same instance compare as strings in order. Ids of two instances compare by their time.
 */
export function nextSignalId(now = Date.now()): string {
  if (now === lastTime) sequence += 1;
  else {
    lastTime = now;
    sequence = 0;
  }
  return `${String(now).padStart(15, '0')}-${String(sequence).padStart(6, '0')}`;
}

/** An id that every signal made after `time` (ms since the epoch) is later than: to resume from. */
export function signalIdAt(time: number): string {
  return `${String(Math.max(0, Math.floor(time))).padStart(15, '0')}-000000`;
}

/** True when signal id `a` is later than `b` (ids from nextSignalId). */
export function isLaterSignal(a: string, b: string): boolean {
  return a > b;
}

/** Signals within this process: enough for a single instance. */
export function createMemorySignalBus(): SignalBus {
  const listeners = new Set<(signal: BillingSignal) => void>();
  return markPerProcess({
    async publish(customer) {
      const signal = { customer, id: nextSignalId() };
      for (const listener of listeners) listener(signal);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
    },
  });
}

/**
 * The part of an ioredis (or compatible) client a Redis bus uses. Redis needs a connection of
 * its own for subscribing: pass two clients (ioredis: `client` and `client.duplicate()`).
 */
export interface RedisPublisherLike {
  publish(channel: string, message: string): Promise<unknown>;
}
export interface RedisSubscriberLike {
  subscribe(channel: string): Promise<unknown>;
  unsubscribe(channel: string): Promise<unknown>;
  on(event: 'message', listener: (channel: string, message: string) => void): unknown;
}

export interface RedisSignalBusOptions {
  publisher: RedisPublisherLike;
  subscriber: RedisSubscriberLike;
  /** The pub/sub channel. Default 'billing-elements:signals'. */
  channel?: string;
}

/**
 * Signals through Redis pub/sub, so that a notification received by one proxy instance reaches
 * the pages connected to every other one. Use the same Redis as the idempotency store.
 */
export function createRedisSignalBus(options: RedisSignalBusOptions): SignalBus {
  const { publisher, subscriber } = options;
  if (typeof publisher?.publish !== 'function' || typeof subscriber?.subscribe !== 'function') {
    throw new TypeError(
      'createRedisSignalBus needs a publisher (publish) and a subscriber (subscribe, on) client',
    );
  }
  const channel = options.channel ?? 'billing-elements:signals';
  const listeners = new Set<(signal: BillingSignal) => void>();
  const subscribed = subscriber.subscribe(channel);
  subscriber.on('message', (from, message) => {
    if (from !== channel) return;
    let signal: BillingSignal;
    try {
      signal = JSON.parse(message) as BillingSignal;
    } catch {
      return;
    }
    if (typeof signal?.customer !== 'string' || typeof signal.id !== 'string') return;
    for (const listener of listeners) listener(signal);
  });
  return {
    async publish(customer) {
      await subscribed;
      await publisher.publish(channel, JSON.stringify({ customer, id: nextSignalId() }));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
      await subscriber.unsubscribe(channel);
    },
  };
}
