import type { IncomingMessage } from 'node:http';
import { registerBodyReader } from '../http.js';

/** Requests whose body the core stopped reading (too large): their connection is closed after the answer. */
export const abandoned = new WeakSet<IncomingMessage>();

interface State {
  incoming: IncomingMessage;
  url: string;
  headers: Headers;
  /** The body as text, when a body parser (express.json()) already read it. */
  parsedBody: string | undefined;
  /** The real Request, made on first use of anything but method, url and headers. */
  real: Request | undefined;
  /** The core took the body straight from the socket. */
  bodyTaken: boolean;
}

// On the object under a private symbol (not in a WeakMap: see BODY_READER in http.ts).
const STATE = Symbol('node request');

function stateOf(request: object): State {
  const state = (request as { [STATE]?: State })[STATE];
  if (state === undefined) throw new TypeError('Illegal invocation');
  return state;
}

/**
 * The request body as a web stream, with backpressure (the socket is paused while nobody
 * reads). When the reader cancels (body too large), the rest is not read: the answer closes
 * the connection instead.
 */
function bodyStream(incoming: IncomingMessage): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        incoming.on('data', (chunk: Buffer) => {
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) incoming.pause();
        });
        incoming.once('end', () => controller.close());
        incoming.once('error', (error) => controller.error(error));
      },
      pull() {
        incoming.resume();
      },
      cancel() {
        abandoned.add(incoming);
        incoming.pause();
        incoming.removeAllListeners('data');
      },
    },
    { highWaterMark: 1 },
  );
}

function realRequest(state: State): Request {
  if (state.real !== undefined) return state.real;
  const { incoming } = state;
  const method = incoming.method ?? 'GET';
  let body: BodyInit | null = null;
  if (method !== 'GET' && method !== 'HEAD') {
    body = state.bodyTaken ? '' : (state.parsedBody ?? bodyStream(incoming));
  }
  const real = new Request(state.url, {
    method,
    headers: state.headers,
    body,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
  if (state.bodyTaken && real.body !== null) {
    // The core already consumed the body: the Request says so, as one whose stream was read.
    void real.body.getReader().read();
  }
  state.real = real;
  return real;
}

/**
 * Reads the body straight from the socket for the core (no web stream), at most `maxBytes`:
 * past that it stops reading and the connection closes after the answer. Null once the real
 * Request exists (its stream is then the body's only reader).
 */
function readIncoming(
  state: State,
  maxBytes: number,
  tooLarge: () => Error,
): Promise<Uint8Array> | null {
  if (state.real !== undefined || state.bodyTaken) return null;
  state.bodyTaken = true;
  const { incoming, parsedBody } = state;
  if (parsedBody !== undefined) {
    const bytes = Buffer.from(parsedBody);
    return bytes.byteLength > maxBytes ? Promise.reject(tooLarge()) : Promise.resolve(bytes);
  }
  // Already read by someone else without a parsed result: there is nothing left to read.
  if (incoming.readableEnded) return Promise.resolve(new Uint8Array(0));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const done = () => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      incoming.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.byteLength;
      if (total > maxBytes) {
        done();
        abandoned.add(incoming);
        incoming.pause();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      done();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total));
    };
    const onError = (error: Error) => {
      done();
      reject(error);
    };
    const onClose = () => onError(new Error('The request was aborted before its body ended'));
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
    incoming.on('close', onClose);
  });
}

/**
 * What a Request is, for objects made by `nodeRequest`: method, url and headers are read from
 * the node:http request; everything else (body, signal, clone(), text()...) from a real
 * Request made on first use. `instanceof Request` holds.
 */
const prototype: object = Object.create(Request.prototype, {
  method: {
    get(this: object) {
      return stateOf(this).incoming.method ?? 'GET';
    },
  },
  url: {
    get(this: object) {
      return stateOf(this).url;
    },
  },
  headers: {
    get(this: object) {
      return stateOf(this).headers;
    },
  },
});
for (const key of Reflect.ownKeys(Request.prototype)) {
  if (key === 'constructor' || key === 'method' || key === 'url' || key === 'headers') continue;
  const descriptor = Object.getOwnPropertyDescriptor(Request.prototype, key);
  if (descriptor?.get !== undefined) {
    const get = descriptor.get;
    Object.defineProperty(prototype, key, {
      get(this: object) {
        return get.call(realRequest(stateOf(this)));
      },
    });
  } else if (typeof descriptor?.value === 'function') {
    const method = descriptor.value as (...args: unknown[]) => unknown;
    Object.defineProperty(prototype, key, {
      value(this: object, ...args: unknown[]) {
        return method.apply(realRequest(stateOf(this)), args);
      },
    });
  }
}

/**
 * A web Request for a node:http request, cheap to make: Node 20's `new Request` costs about
 * 15 µs (it makes a transferable AbortSignal) and a body stream about 40 µs more, while the core
 * only needs method, url, headers and the body's bytes. Those come from the node:http request;
 * the core reads the body through a registered reader (see http.ts); anything else makes the
 * real Request first, so host code (identify) sees a genuine Request's behaviour.
 */
export function nodeRequest(
  incoming: IncomingMessage,
  url: string,
  headers: Headers,
  parsedBody: string | undefined,
): Request {
  const request = Object.create(prototype) as Request & { [STATE]?: State };
  const state: State = { incoming, url, headers, parsedBody, real: undefined, bodyTaken: false };
  request[STATE] = state;
  registerBodyReader(request, (maxBytes, tooLarge) => readIncoming(state, maxBytes, tooLarge));
  return request;
}
