import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { Answer } from '../http.js';
import { answererOf, routePath, type BillingProxy } from '../proxy.js';
import { abandoned, nodeRequest } from './node-request.js';

export interface NodeHandlerOptions {
  /**
   * Build the request URL from X-Forwarded-Proto and X-Forwarded-Host (set this only behind a
   * reverse proxy that overwrites them): the same-origin check then sees the public origin.
   */
  trustProxy?: boolean;
}

/** A node:http request listener, also usable as Connect/Express middleware (with `next`). */
export type NodeHandler = (
  request: IncomingMessage,
  response: ServerResponse,
  next?: (error?: unknown) => void,
) => void;

function firstHeader(value: string | string[] | undefined): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return first?.split(',')[0]?.trim() || undefined;
}

/**
 * node:http request → web Request (a light one: see nodeRequest). The body is not read here:
 * the core reads it, with its size cap.
 */
export function toWebRequest(request: IncomingMessage, options: NodeHandlerOptions = {}): Request {
  const encrypted = (request.socket as { encrypted?: boolean }).encrypted === true;
  const protocol =
    (options.trustProxy ? firstHeader(request.headers['x-forwarded-proto']) : undefined) ??
    (encrypted ? 'https' : 'http');
  const host =
    (options.trustProxy ? firstHeader(request.headers['x-forwarded-host']) : undefined) ??
    request.headers.host ??
    'localhost';
  // Express strips its mount path from `url` but keeps it in `originalUrl`: basePath sees the full path.
  const path = (request as { originalUrl?: string }).originalUrl ?? request.url ?? '/';

  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (name.startsWith(':') || value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }

  let parsedBody: string | undefined;
  const parsed = (request as { body?: unknown }).body;
  if (
    request.method !== 'GET' &&
    request.method !== 'HEAD' &&
    request.readableEnded &&
    parsed !== undefined
  ) {
    // A body parser ran first (express.json()): hand its result on as JSON.
    parsedBody =
      typeof parsed === 'string'
        ? parsed
        : parsed instanceof Uint8Array
          ? new TextDecoder().decode(parsed)
          : JSON.stringify(parsed);
    headers.delete('content-length');
  }
  return nodeRequest(request, new URL(path, `${protocol}://${host}`).href, headers, parsedBody);
}

/**
 * The core's answer → node:http response. Answers are small JSON documents already in memory:
 * written with their headers in one write (one syscall instead of three).
 */
export function sendAnswer(answer: Answer, target: ServerResponse): void {
  const headers = answer.headers;
  if (abandoned.has(target.req)) headers.connection = 'close';
  if (answer.body === null) {
    target.writeHead(answer.status, headers).end();
    return;
  }
  headers['content-length'] = String(Buffer.byteLength(answer.body));
  target.writeHead(answer.status, headers).end(answer.body);
}

/**
 * web Response → node:http response, for a handler the host wrapped. A JSON body is written
 * with its headers in one write; any other body is streamed.
 */
export async function sendWebResponse(response: Response, target: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  if (abandoned.has(target.req)) headers.connection = 'close';
  if (response.body === null) {
    target.writeHead(response.status, headers).end();
    return;
  }
  if (!headers['content-type']?.startsWith('application/json')) {
    target.writeHead(response.status, headers);
    await new Promise<void>((resolve, reject) => {
      Readable.fromWeb(response.body as unknown as NodeReadableStream<Uint8Array>)
        .on('error', reject)
        .pipe(target)
        .on('finish', resolve)
        .on('error', reject);
    });
    return;
  }
  const text = await response.text();
  headers['content-length'] = String(Buffer.byteLength(text));
  target.writeHead(response.status, headers).end(text);
}

/**
 * The proxy as a node:http listener: `http.createServer(toNodeHandler(proxy))`. As middleware
 * (with `next`), requests outside the proxy's basePath are passed on.
 */
export function toNodeHandler(proxy: BillingProxy, options: NodeHandlerOptions = {}): NodeHandler {
  return (request, response, next) => {
    const path = (request as { originalUrl?: string }).originalUrl ?? request.url ?? '/';
    if (next !== undefined && routePath(path.split('?')[0] ?? '/', proxy.basePath) === null) {
      next();
      return;
    }
    // No abort signal on the Request: the core never aborts on a client disconnect (a purchase
    // must run to its recorded outcome), and Node 20's Request makes a signal very costly.
    // The proxy's own answers skip the Response; a handler the host wrapped is called as it is.
    const answer = answererOf(proxy);
    const answered =
      answer === undefined
        ? Promise.resolve()
            .then(() => proxy.handler(toWebRequest(request, options)))
            .then((webResponse) => sendWebResponse(webResponse, response))
        : Promise.resolve()
            .then(() => answer(toWebRequest(request, options)))
            .then((result) => sendAnswer(result, response));
    answered.catch((error: unknown) => {
      if (next !== undefined) next(error);
      else if (!response.headersSent) {
        response.statusCode = 500;
        response.end();
      } else response.destroy();
    });
  };
}
