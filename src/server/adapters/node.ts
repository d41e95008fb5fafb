import type { ServerResponse } from 'node:http';
import { ProxyError } from '../errors.js';
import { PlainAnswer, errorAnswer, type Answer } from '../http.js';
import { forwardedUrl } from '../origin.js';
import { answerHandlerOf, routePath, type BillingProxy } from '../proxy.js';
import { IncomingRequest, type IncomingLike } from './node-request.js';

export interface NodeHandlerOptions {
  /**
   * Build the request URL from X-Forwarded-Proto and X-Forwarded-Host (set this only behind a
   * reverse proxy that overwrites them): the same-origin check then sees the public origin.
   */
  trustProxy?: boolean;
}

/** A node:http request listener, also usable as Connect/Express middleware (with `next`). */
export type NodeHandler = (
  request: IncomingLike,
  response: ServerResponse,
  next?: (error?: unknown) => void,
) => void;

/**
 * Hands a body that a parser already read (express.json() mounted first) to the request as the
 * raw body it reads instead of the spent stream.
 */
function keepParsedBody(request: IncomingLike): void {
  if (request.rawBody instanceof Buffer || !request.readableEnded || request.body === undefined)
    return;
  const parsed = request.body;
  request.rawBody = Buffer.from(
    typeof parsed === 'string'
      ? parsed
      : parsed instanceof Uint8Array
        ? parsed
        : JSON.stringify(parsed),
  );
}

/** A host (lower case, no default port) and a path that `new URL` would give back unchanged. */
const PLAIN_HOST = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/;
const PLAIN_PATH = /^\/[!#$&-;=?-[\]_a-z~]*$/;
const DOT_SEGMENT = /\/\.\.?(?:[/?#]|$)/;

/** The request's URL, as a web server would give it; null when it has none. */
function requestUrl(incoming: IncomingLike, path: string, trustProxy: boolean): string | null {
  let url: string;
  if (path.startsWith('/')) {
    // HTTP/2 (node:http2's compatibility API) names the host and scheme in pseudo-headers.
    const http2 = incoming as { scheme?: unknown };
    const host = incoming.headers.host ?? incoming.headers[':authority'];
    if (typeof host !== 'string' || host === '') return null;
    const scheme =
      typeof http2.scheme === 'string'
        ? http2.scheme
        : (incoming.socket as { encrypted?: boolean } | null)?.encrypted
          ? 'https'
          : 'http';
    url = `${scheme}://${host}${path}`;
    if (!PLAIN_HOST.test(host) || !PLAIN_PATH.test(path) || DOT_SEGMENT.test(path)) {
      try {
        url = new URL(url).href;
      } catch {
        return null;
      }
    }
  } else {
    // The absolute form (GET http://host/path), which a client may send to any server.
    try {
      const absolute = new URL(path);
      if (absolute.protocol !== 'http:' && absolute.protocol !== 'https:') return null;
      url = absolute.href;
    } catch {
      return null;
    }
  }
  if (!trustProxy) return url;
  const { 'x-forwarded-proto': proto, 'x-forwarded-host': host } = incoming.headers;
  if (proto === undefined && host === undefined) return url;
  const forwarded = new Headers();
  if (proto !== undefined) forwarded.set('x-forwarded-proto', String(proto));
  if (host !== undefined) forwarded.set('x-forwarded-host', String(host));
  return forwardedUrl(new URL(url), forwarded).href;
}

/**
 * Writes the core's own answer in one go: its headers and its whole body in a single write, as
 * a plain node:http server would.
 */
function writePlain(response: ServerResponse, answer: PlainAnswer, closeAfter: boolean): void {
  const { headers, body } = answer;
  if (body !== null) headers['content-length'] = String(Buffer.byteLength(body));
  if (closeAfter) headers.connection = 'close';
  response.writeHead(answer.status, headers);
  if (body === null) response.end();
  else response.end(body);
}

/**
 * Writes a Response (an event stream, or a host's own): its headers, every Set-Cookie apart,
 * then its body as it comes, waiting for the socket when it is full. When the client goes
 * away first, the body is cancelled (an event stream then ends on the server too).
 */
async function writeResponse(
  response: ServerResponse,
  answer: Response,
  head: boolean,
  closeAfter: boolean,
): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  answer.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = answer.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  if (closeAfter) headers.connection = 'close';
  const body = answer.body;
  response.writeHead(answer.status, answer.statusText || undefined, headers);
  if (body === null || head) {
    // HEAD: node:http sends no body; the stream is let go.
    if (body !== null) await body.cancel().catch(() => {});
    response.end();
    return;
  }
  const reader = body.getReader();
  const cancel = () => void reader.cancel().catch(() => {});
  response.once('close', cancel);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || response.destroyed) break;
      if (!response.write(value)) {
        await new Promise<void>((resolve) => {
          const go = () => {
            response.off('drain', go);
            response.off('close', go);
            resolve();
          };
          response.on('drain', go);
          response.on('close', go);
        });
      }
    }
    if (!response.destroyed) response.end();
  } catch (error) {
    // The body failed half-way: the client must not take the part it got for the whole.
    response.destroy(error instanceof Error ? error : new Error(String(error)));
  } finally {
    response.off('close', cancel);
  }
}

/**
 * The proxy as a node:http listener: `http.createServer(toNodeHandler(proxy))`. As middleware
 * (with `next`), requests outside the proxy's basePath are passed on.
 *
 * The core gets a Request that reads node:http's request directly (see node-request.ts), and
 * its answer is written in one go. The process's globals are left alone.
 */
export function toNodeHandler(proxy: BillingProxy, options: NodeHandlerOptions = {}): NodeHandler {
  const trustProxy = options.trustProxy ?? false;
  return (incoming, response, next) => {
    // Express strips its mount path from `url` but keeps it in `originalUrl`: basePath sees the
    // full path.
    const path = incoming.originalUrl ?? incoming.url ?? '/';
    if (next !== undefined && routePath(path.split('?')[0] ?? '/', proxy.basePath) === null) {
      next();
      return;
    }
    const method = incoming.method;
    const hasBody = method !== 'GET' && method !== 'HEAD';
    if (hasBody) keepParsedBody(incoming);
    const url = requestUrl(incoming, path, trustProxy);
    const served: Promise<void> =
      url === null
        ? Promise.resolve(
            writePlain(
              response,
              errorAnswer(new ProxyError(400, 'validation', 'Invalid request URL.')),
              false,
            ),
          )
        : answer(proxy, new IncomingRequest(incoming, response, url)).then((answered) => {
            // A body the proxy stopped reading (over its cap) is not waited for: the
            // connection closes after the answer instead of carrying the rest.
            const closeAfter =
              hasBody &&
              incoming.readableDidRead &&
              !incoming.complete &&
              incoming.httpVersionMajor < 2;
            if (answered instanceof PlainAnswer) writePlain(response, answered, closeAfter);
            else return writeResponse(response, answered, method === 'HEAD', closeAfter);
          });
    served.catch((error: unknown) => {
      if (next !== undefined) next(error);
      else if (!response.headersSent) {
        response.statusCode = 500;
        response.end();
      } else response.destroy();
    });
  };
}

/**
 * The proxy's answer: its own handler answers without a Response; a host's wrapper of the
 * handler (`{ ...proxy, handler }`) is called as it is.
 */
function answer(proxy: BillingProxy, request: IncomingRequest): Promise<Answer> {
  const asRequest = request as unknown as Request;
  const handler = proxy.handler;
  const plain = answerHandlerOf(handler);
  return plain === undefined ? handler(asRequest) : plain(asRequest);
}
