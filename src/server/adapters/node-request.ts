import type { IncomingMessage, ServerResponse } from 'node:http';

// A web Request over node:http's IncomingMessage, made at the cost of an object: method, url
// and the headers the proxy reads come straight from node:http, and the body is read from the
// socket into one buffer. Anything else (`signal`, `clone()`, `body` as a stream, `formData()`,
// iterating the headers...) is served by a real Request of the runtime, made the first time it
// is asked for, so that a host's `identify` sees a Request that behaves as any other. Node's
// own Request costs tens of microseconds to make (its headers, its body stream, its signal),
// more than the rest of a proxied call; and the process's globals stay the host's.
//
// Nothing here is imported: it runs where node:http does.

/** node:http's request, as Express and body parsers may leave it. */
export type IncomingLike = IncomingMessage & {
  originalUrl?: string;
  body?: unknown;
  /** A body a parser already read, to read instead of the spent stream (see node.ts). */
  rawBody?: Buffer;
};

/** The runtime's own classes, whose prototypes the light ones take. */
const RuntimeRequest = globalThis.Request;
const RuntimeHeaders = globalThis.Headers;

/**
 * Names node:http keeps once when they are repeated (it drops the later ones) and `set-cookie`
 * (an array there): a Headers joins every repeat with ", ", so these are read from rawHeaders.
 */
const KEPT_ONCE = new Set([
  'age',
  'authorization',
  'content-length',
  'content-type',
  'etag',
  'expires',
  'from',
  'host',
  'if-modified-since',
  'if-unmodified-since',
  'last-modified',
  'location',
  'max-forwards',
  'proxy-authorization',
  'referer',
  'retry-after',
  'server',
  'user-agent',
  'set-cookie',
]);

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function clientGone(): Error {
  return new Error('The client went away before its body ended');
}

function bodyUnusable(): TypeError {
  return new TypeError('Body is unusable: Body has already been read');
}

/**
 * The request's headers: `get` and `has` read node:http's, everything else (iterating,
 * changing, `getSetCookie`) a real Headers made from the raw list on first use, which then
 * answers every call.
 */
class IncomingHeaders {
  readonly #incoming: IncomingMessage;
  #real: Headers | undefined;

  constructor(incoming: IncomingMessage) {
    this.#incoming = incoming;
  }

  #headers(): Headers {
    if (this.#real === undefined) {
      const real = new RuntimeHeaders();
      const raw = this.#incoming.rawHeaders;
      for (let index = 0; index < raw.length; index += 2) {
        const name = raw[index] as string;
        // HTTP/2's pseudo-headers (:path, :authority...) are not headers of a Request.
        if (!name.startsWith(':')) real.append(name, raw[index + 1] as string);
      }
      this.#real = real;
    }
    return this.#real;
  }

  get(name: string): string | null {
    if (this.#real !== undefined || typeof name !== 'string' || !TOKEN.test(name))
      return this.#headers().get(name);
    const lower = name.toLowerCase();
    if (!KEPT_ONCE.has(lower)) {
      const headers = this.#incoming.headers;
      if (!Object.hasOwn(headers, lower)) return null;
      const value = headers[lower];
      if (typeof value === 'string') return value;
    }
    // Every value, joined as a Headers joins them.
    const raw = this.#incoming.rawHeaders;
    let joined: string | null = null;
    for (let index = 0; index < raw.length; index += 2) {
      const rawName = raw[index] as string;
      if (rawName.length !== lower.length || rawName.toLowerCase() !== lower) continue;
      const value = raw[index + 1] as string;
      joined = joined === null ? value : `${joined}${lower === 'cookie' ? '; ' : ', '}${value}`;
    }
    return joined;
  }

  has(name: string): boolean {
    return this.get(name) !== null;
  }

  static {
    // Every other member of Headers, served by the real one.
    for (const key of Reflect.ownKeys(RuntimeHeaders.prototype)) {
      if (key === 'constructor' || key === 'get' || key === 'has' || key === Symbol.toStringTag)
        continue;
      const descriptor = Object.getOwnPropertyDescriptor(RuntimeHeaders.prototype, key);
      if (typeof descriptor?.value !== 'function') continue;
      Object.defineProperty(IncomingHeaders.prototype, key, {
        configurable: true,
        writable: true,
        value(this: IncomingHeaders, ...args: unknown[]) {
          const real = this.#headers() as unknown as Record<
            PropertyKey,
            (...a: unknown[]) => unknown
          >;
          return (real[key] as (...a: unknown[]) => unknown).apply(real, args);
        },
      });
    }
    Object.setPrototypeOf(IncomingHeaders.prototype, RuntimeHeaders.prototype);
  }
}

/** The body of a request that has one, as a web stream (for `request.body` and a real Request). */
function bodyStream(incoming: IncomingLike): ReadableStream<Uint8Array> {
  const parsed = incoming.rawBody;
  if (parsed instanceof Buffer) {
    return new ReadableStream({
      start(controller) {
        if (parsed.byteLength > 0) controller.enqueue(new Uint8Array(parsed));
        controller.close();
      },
    });
  }
  if (incoming.readableDidRead || incoming.readableEnded) {
    // Read by something else already, which left no parsed body behind.
    return new ReadableStream({
      start(controller) {
        controller.error(bodyUnusable());
      },
    });
  }
  let settled = false;
  let stop = () => {};
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const onData = (chunk: Buffer) => {
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) incoming.pause();
        };
        const finish = (error?: unknown) => {
          if (settled) return;
          settled = true;
          stop();
          if (error === undefined) controller.close();
          else controller.error(error);
        };
        const onClose = () => {
          if (!incoming.complete) finish(clientGone());
          else finish();
        };
        stop = listenToBody(incoming, {
          data: onData,
          end: () => finish(),
          error: (error) => finish(error),
          close: onClose,
        });
        if (incoming.destroyed) onClose();
      },
      pull() {
        incoming.resume();
      },
      cancel() {
        // Read no more (the proxy refuses a body over its cap this way): the rest is discarded
        // as node:http discards an unread body, and the answer closes the connection.
        settled = true;
        stop();
        incoming.resume();
      },
    },
    { highWaterMark: 1 },
  );
}

/** The body of a request that has one, read whole (a parser's copy, or from the socket). */
function readBody(incoming: IncomingLike): Promise<Buffer> {
  const parsed = incoming.rawBody;
  if (parsed instanceof Buffer) return Promise.resolve(parsed);
  if (incoming.readableDidRead || incoming.readableEnded) return Promise.reject(bodyUnusable());
  // Gone before anything was read: no event will come.
  if (incoming.destroyed) return Promise.reject(clientGone());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const stop = listenToBody(incoming, {
      data: (chunk) => chunks.push(chunk),
      end: () => {
        stop();
        resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
      },
      error: (error) => {
        stop();
        reject(error instanceof Error ? error : new Error(String(error)));
      },
      close: () => {
        if (incoming.complete) return;
        stop();
        reject(clientGone());
      },
    });
  });
}

/** What a body's reader hears of the socket: its chunks, its end, an error, its closing. */
interface BodyListeners {
  data(chunk: Buffer): void;
  end(): void;
  error(error: unknown): void;
  close(): void;
}

/** Listens to the request's body events; returns the function that stops listening. */
function listenToBody(incoming: IncomingLike, { data, end, error, close }: BodyListeners) {
  incoming.on('data', data).on('end', end).on('error', error).on('close', close);
  return () => {
    incoming.off('data', data).off('end', end).off('error', error).off('close', close);
  };
}

const utf8 = new TextDecoder();

/**
 * A Request over node:http's request (see the top of this file). `url` is given whole: the
 * adapter builds it (Host, or X-Forwarded-* with trustProxy).
 */
export class IncomingRequest {
  readonly #incoming: IncomingLike;
  readonly #response: ServerResponse;
  readonly #url: string;
  #headers: IncomingHeaders | undefined;
  #real: Request | undefined;
  #controller: AbortController | undefined;
  /** The body was read here, without a real Request. */
  #bodyRead = false;

  constructor(incoming: IncomingLike, response: ServerResponse, url: string) {
    this.#incoming = incoming;
    this.#response = response;
    this.#url = url;
  }

  get method(): string {
    return this.#incoming.method ?? 'GET';
  }

  get url(): string {
    return this.#url;
  }

  get headers(): Headers {
    return (this.#headers ??= new IncomingHeaders(this.#incoming)) as unknown as Headers;
  }

  /** Aborted when the client goes away before the whole answer was written. */
  get signal(): AbortSignal {
    return this.#abortController().signal;
  }

  get bodyUsed(): boolean {
    return this.#bodyRead || (this.#real?.bodyUsed ?? false);
  }

  get body(): ReadableStream<Uint8Array> | null {
    return this.#request().body;
  }

  /** Whether the request has a body: every method but GET and HEAD may. */
  #hasBody(): boolean {
    const method = this.method;
    return method !== 'GET' && method !== 'HEAD';
  }

  #abortController(): AbortController {
    if (this.#controller !== undefined) return this.#controller;
    const controller = new AbortController();
    this.#controller = controller;
    const response = this.#response;
    const abort = () => {
      if (!response.writableFinished) controller.abort();
    };
    if (response.closed) abort();
    else response.once('close', abort);
    return controller;
  }

  /** The real Request, made on first use, with the same body (unless it was read here). */
  #request(): Request {
    if (this.#real !== undefined) return this.#real;
    const init: RequestInit & { duplex?: 'half' } = {
      method: this.method,
      headers: this.headers,
      signal: this.#abortController().signal,
    };
    if (this.#hasBody()) {
      init.body = this.#bodyRead ? new ReadableStream() : bodyStream(this.#incoming);
      init.duplex = 'half';
    }
    const real = new RuntimeRequest(this.#url, init);
    // A body read here is spent on the real one too.
    if (this.#bodyRead) real.arrayBuffer().catch(() => {});
    this.#real = real;
    return real;
  }

  /** The body's bytes, read straight from the socket unless a real Request holds them. */
  #bytes(): Promise<Buffer> {
    if (this.#real !== undefined)
      return this.#real.arrayBuffer().then((bytes) => Buffer.from(bytes));
    if (this.#bodyRead) return Promise.reject(bodyUnusable());
    if (!this.#hasBody()) return Promise.resolve(Buffer.alloc(0));
    this.#bodyRead = true;
    return readBody(this.#incoming);
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    if (this.#real !== undefined) return this.#real.arrayBuffer();
    return this.#bytes().then(
      (bytes) =>
        bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
    );
  }

  bytes(): Promise<Uint8Array> {
    return this.arrayBuffer().then((bytes) => new Uint8Array(bytes));
  }

  text(): Promise<string> {
    if (this.#real !== undefined) return this.#real.text();
    return this.#bytes().then((bytes) => utf8.decode(bytes));
  }

  json(): Promise<unknown> {
    return this.text().then((text) => JSON.parse(text) as unknown);
  }

  clone(): Request {
    if (this.#bodyRead) throw bodyUnusable();
    return this.#request().clone();
  }

  /** What console.log shows, without making the real Request. */
  [Symbol.for('nodejs.util.inspect.custom')](
    _depth: number,
    options: object,
    inspect: (value: unknown, options: object) => string,
  ): string {
    const { method, url, bodyUsed } = this;
    return `Request ${inspect({ method, url, headers: this.headers, bodyUsed }, options)}`;
  }

  static {
    // Every other member of Request (cache, mode, blob(), formData()...), served by the real one.
    const own = new Set(Reflect.ownKeys(IncomingRequest.prototype));
    for (const key of Reflect.ownKeys(RuntimeRequest.prototype)) {
      if (own.has(key) || key === Symbol.toStringTag) continue;
      const descriptor = Object.getOwnPropertyDescriptor(RuntimeRequest.prototype, key);
      if (descriptor === undefined) continue;
      const real = (request: IncomingRequest) =>
        request.#request() as unknown as Record<PropertyKey, unknown>;
      if (typeof descriptor.value === 'function') {
        Object.defineProperty(IncomingRequest.prototype, key, {
          configurable: true,
          writable: true,
          value(this: IncomingRequest, ...args: unknown[]) {
            const target = real(this);
            return (target[key] as (...a: unknown[]) => unknown).apply(target, args);
          },
        });
      } else if (descriptor.get !== undefined) {
        Object.defineProperty(IncomingRequest.prototype, key, {
          configurable: true,
          get(this: IncomingRequest) {
            return real(this)[key];
          },
        });
      }
    }
    // `instanceof Request` and `[object Request]`, as the host's code expects of a request.
    Object.setPrototypeOf(IncomingRequest.prototype, RuntimeRequest.prototype);
  }
}
