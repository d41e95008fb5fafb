import type { ProxyLogger } from '../options.js';
import { isLaterSignal, signalIdAt, type BillingSignal, type SignalBus } from './signals.js';

// GET {basePath}/events: one server-sent event stream per open page of a signed-in customer.
// Each signal of the bus for that customer becomes one `billing-changed` event; nothing else of
// the customer's billing goes down the stream (the page re-reads it through the usual routes).

export interface EventStreamOptions {
  /** A comment line on every stream this often, so that proxies and browsers keep it open. */
  heartbeatMs: number;
  /** The reconnection delay the browser is told (the `retry:` field). */
  retryMs: number;
  /** Streams this instance holds at most; more are refused with 503. */
  maxStreams: number;
}

interface Stream {
  customer: string;
  send(text: string): void;
  end(): void;
}

const encoder = new TextEncoder();
/** How many customers' latest signal ids an instance remembers for `Last-Event-ID` resumes. */
const REMEMBERED_CUSTOMERS = 10_000;
/** How far back a page whose stream lost its signals resumes from. */
const LOST_MARGIN_MS = 2_000;

/** The event a page receives for a signal. */
function eventText(signal: BillingSignal): string {
  return `id: ${signal.id}\nevent: billing-changed\ndata: {}\n\n`;
}

export interface EventHub {
  /**
   * The response of GET /events for this customer: an open event stream. It ends when the
   * reader cancels it (the page went away: every runtime's server cancels the body then).
   */
  open(customer: string, lastEventId: string | null): Response;
  /** Streams open on this instance now. */
  readonly size: number;
  /**
   * Ends every stream and stops listening to the bus. Each stream is told first when to come
   * back (a `retry:` line): between retryMs and twice that, so that the pages of an instance
   * that shuts down reconnect to the others spread out, not all at once.
   */
  close(): void;
}

export function createEventHub(
  bus: SignalBus,
  options: EventStreamOptions,
  logger: ProxyLogger,
): EventHub {
  const streams = new Map<string, Set<Stream>>();
  // The latest signal of each customer (insertion order = least recently signalled first), so
  // that a page reconnecting with an older Last-Event-ID learns it missed something.
  const latest = new Map<string, string>();
  let size = 0;
  /** Between retryMs and twice that: pages told to come back at once do not all come at once. */
  const jittered = () => options.retryMs + Math.floor(Math.random() * options.retryMs);

  const unsubscribe = bus.subscribe((signal) => {
    latest.delete(signal.customer);
    latest.set(signal.customer, signal.id);
    if (latest.size > REMEMBERED_CUSTOMERS) latest.delete(latest.keys().next().value as string);
    const text = eventText(signal);
    for (const stream of streams.get(signal.customer) ?? []) stream.send(text);
  });

  function remove(stream: Stream): void {
    const set = streams.get(stream.customer);
    if (set === undefined || !set.delete(stream)) return;
    size -= 1;
    if (set.size === 0) streams.delete(stream.customer);
  }

  return {
    get size() {
      return size;
    },

    open(customer, lastEventId) {
      if (size >= options.maxStreams) {
        logger({
          level: 'warn',
          event: 'event-streams-full',
          message: `Refused an event stream: ${size} are open on this instance (maxStreams)`,
        });
        return new Response(null, { status: 503, headers: { 'retry-after': '30' } });
      }
      let stream: Stream | undefined;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          let open = true;
          // Each stream keeps its own heartbeat, made while its request is being answered:
          // Cloudflare Workers cancels a streamed answer that has nothing pending in its own
          // request (a timer of the hub, made by an earlier request, does not count).
          const heartbeat = setInterval(() => current.send(':\n\n'), options.heartbeatMs);
          (heartbeat as { unref?: () => void }).unref?.();
          const current: Stream = {
            customer,
            send(text) {
              if (!open) return;
              try {
                controller.enqueue(encoder.encode(text));
              } catch {
                current.end();
              }
            },
            end() {
              if (!open) return;
              open = false;
              clearInterval(heartbeat);
              unfollow?.();
              remove(current);
              try {
                controller.close();
              } catch {
                // Already closed by the reader.
              }
            },
          };
          // A bus that delivers a customer's signals only where they are followed (Durable
          // Objects) follows this customer while the stream is open, from this request.
          const unfollow = bus.follow?.(customer, lastEventId, (reason) => {
            logger({
              level: 'warn',
              event: 'signals-lost',
              message: `Ended an event stream whose signals were lost (${reason}); the page reconnects`,
            });
            // The page comes back with this as its Last-Event-ID, and is then told of any
            // signal made since (a margin earlier, for another machine's clock).
            current.send(
              `id: ${signalIdAt(Date.now() - LOST_MARGIN_MS)}\nretry: ${jittered()}\n\n`,
            );
            current.end();
          });
          stream = current;
          let set = streams.get(customer);
          if (set === undefined) streams.set(customer, (set = new Set()));
          set.add(current);
          size += 1;
          // The first bytes open the stream at once; a page that missed a signal while it was
          // away is told now.
          let opening = `retry: ${options.retryMs}\n:\n\n`;
          const last = latest.get(customer);
          if (lastEventId !== null && last !== undefined && isLaterSignal(last, lastEventId))
            opening += eventText({ customer, id: last });
          current.send(opening);
        },
        cancel() {
          stream?.end();
        },
      });
      return new Response(body, {
        status: 200,
        headers: {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-store, no-transform',
          // Reverse proxies that buffer answers (nginx) pass this stream through as it comes.
          'x-accel-buffering': 'no',
          'x-content-type-options': 'nosniff',
        },
      });
    },

    close() {
      unsubscribe();
      for (const set of [...streams.values()]) {
        for (const stream of [...set]) {
          stream.send(`retry: ${jittered()}\n\n`);
          stream.end();
        }
      }
    },
  };
}
