import { ProxyError } from './errors.js';

/** The headers of every JSON answer (a new object each time, for the caller to add to). */
const baseHeaders = (): Record<string, string> => ({
  'content-type': 'application/json; charset=utf-8',
  // Answers are about one signed-in customer: never cached by a browser or a shared cache.
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
});

/**
 * An answer the core made itself (a JSON document, or nothing), not yet a Response. The public
 * handler turns it into one; the Node adapter writes it to node:http as it is, because a
 * Response costs Node several times the CPU of writing the same bytes (headers, a body stream
 * and its reader).
 */
export class PlainAnswer {
  constructor(
    readonly status: number,
    /** Lower-case names, one value each (the core never answers repeated headers). */
    readonly headers: Record<string, string>,
    readonly body: string | null,
  ) {}
}

/** What the core answers: a Response (an event stream, a host's own), or a plain answer. */
export type Answer = Response | PlainAnswer;

export function toResponse(answer: Answer): Response {
  if (!(answer instanceof PlainAnswer)) return answer;
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

/** Adds headers to an answer (CORS headers, say), whichever kind it is. */
export function addHeaders(answer: Answer, headers: Record<string, string>): void {
  if (answer instanceof PlainAnswer) Object.assign(answer.headers, headers);
  else for (const name in headers) answer.headers.set(name, headers[name] as string);
}

export function jsonAnswer(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): PlainAnswer {
  return new PlainAnswer(status, Object.assign(baseHeaders(), headers), JSON.stringify(body));
}

export function errorAnswer(error: ProxyError): PlainAnswer {
  return jsonAnswer(error.status, error.toBody(), error.headers);
}

export function jsonResponse(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return toResponse(jsonAnswer(status, body, headers));
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

function bodyTooLarge(maxBytes: number): ProxyError {
  return new ProxyError(413, 'payload-too-large', `The body is larger than ${maxBytes} bytes.`);
}

/** The body's bytes, at most `maxBytes`: checked while reading, so a larger body is cut short. */
async function readStream(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<Uint8Array> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw bodyTooLarge(maxBytes);
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
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) throw bodyTooLarge(maxBytes);
  let bytes: Uint8Array;
  try {
    // A declared length bounds the body (HTTP framing stops it there): read it whole, which
    // the Node adapter serves without a web stream. Without one (chunked), count while
    // streaming, so that an oversized body is cut short.
    if (declared !== null) bytes = new Uint8Array(await request.arrayBuffer());
    else if (request.body === null)
      throw new ProxyError(400, 'validation', 'A JSON body is required.');
    else bytes = await readStream(request.body, maxBytes);
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
