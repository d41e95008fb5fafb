import { ProxyError } from './errors.js';

/**
 * An answer of the core before it becomes a Response: `handler` turns it into one, the Node
 * adapter writes it to the socket as it is (no Response, Headers or web stream on the way).
 */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  /** JSON text, or null for no body. */
  body: string | null;
}

/**
 * The headers of every JSON answer, as a new literal each time for the caller to add to: on
 * Node 20 an object spread (or a copy of a shared constant) costs microseconds per answer.
 */
const baseHeaders = (): Record<string, string> => ({
  'content-type': 'application/json; charset=utf-8',
  // Answers are about one signed-in customer: never cached by a browser or a shared cache.
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
});

export function jsonAnswer(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Answer {
  const all = Object.assign(baseHeaders(), headers);
  return { status, headers: all, body: JSON.stringify(body) };
}

export function errorAnswer(error: ProxyError): Answer {
  return jsonAnswer(error.status, error.toBody(), error.headers);
}

export function toResponse(answer: Answer): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

/** True for `application/json`, with or without parameters such as `charset=utf-8`. */
export function isJsonContentType(value: string | null): boolean {
  if (value === null) return false;
  const [type, ...parameters] = value.split(';');
  if (type?.trim().toLowerCase() !== 'application/json') return false;
  // A charset other than UTF-8 would be decoded wrongly: refuse it rather than guess.
  return parameters.every((parameter) => {
    const [name, raw] = parameter.split('=').map((part) => part.trim().toLowerCase());
    return name !== 'charset' || raw?.replace(/"/g, '') === 'utf-8';
  });
}

/**
 * Reads a request's body of at most `maxBytes` without a web stream, for adapters that hold the
 * body elsewhere (the Node adapter: the socket). Rejects with `tooLarge()` past `maxBytes`.
 * Answers null when it cannot (the body is then read from `request.body`).
 */
export type BodyReader = (maxBytes: number, tooLarge: () => Error) => Promise<Uint8Array> | null;

// A symbol-keyed property rather than a WeakMap: one per request, and WeakMap entries cost the
// garbage collector extra work (ephemerons) on every young-generation collection.
const BODY_READER = Symbol('billing-proxy body reader');

export function registerBodyReader(request: Request, reader: BodyReader): void {
  (request as { [BODY_READER]?: BodyReader })[BODY_READER] = reader;
}

/** The body's bytes, at most `maxBytes`: checked while reading, so a larger body is cut short. */
async function readStream(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  tooLarge: () => Error,
): Promise<Uint8Array> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The client went away before its body ended (a short Content-Length, broken chunking, a closed
 * socket): nobody is left to answer, and it is no fault of the proxy's.
 */
export class ClientAbortError extends Error {
  override readonly name = 'ClientAbortError';
}

/**
 * Reads a JSON body of at most `maxBytes`. The size is checked while reading, so an oversized
 * body is refused after `maxBytes` bytes, not after reading all of it; a declared
 * Content-Length over the limit is refused before reading anything.
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  const tooLarge = () =>
    new ProxyError(413, 'payload-too-large', `The body is larger than ${maxBytes} bytes.`);
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge();
  const direct =
    (request as { [BODY_READER]?: BodyReader })[BODY_READER]?.(maxBytes, tooLarge) ?? null;
  if (direct === null && request.body === null)
    throw new ProxyError(400, 'validation', 'A JSON body is required.');
  let bytes: Uint8Array;
  try {
    bytes = await (direct ??
      readStream(request.body as ReadableStream<Uint8Array>, maxBytes, tooLarge));
  } catch (error) {
    if (error instanceof ProxyError) throw error;
    throw new ClientAbortError('The client went away before its body ended', { cause: error });
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new ProxyError(400, 'validation', 'The body is not valid UTF-8.');
  }
  if (text.trim() === '') throw new ProxyError(400, 'validation', 'A JSON body is required.');
  try {
    return JSON.parse(text);
  } catch {
    throw new ProxyError(400, 'validation', 'The body is not valid JSON.');
  }
}

/** A route's answer with a status other than 200 (routes return plain objects for 200). */
export class JsonResult {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}
