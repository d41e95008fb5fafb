import { getRequestListener } from '@hono/node-server';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { routePath, type BillingProxy } from '../proxy.js';

export interface NodeHandlerOptions {
  /**
   * Let @hono/node-server install its lightweight `Request` and `Response` as the process's
   * globals, as every Hono app on Node does (the default): a JSON answer is then written without
   * a web stream, at about two thirds of the CPU per request. Its one visible quirk: a
   * `request.clone()` is a Request of the runtime's own class, not `instanceof` the global one.
   * Set false to leave the globals alone.
   */
  overrideGlobalObjects?: boolean;
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

/** What Express and body parsers add to node:http's request. */
type MiddlewareRequest = IncomingMessage & {
  originalUrl?: string;
  body?: unknown;
  rawBody?: Buffer;
};

function firstHeader(value: string | string[] | undefined): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return first?.split(',')[0]?.trim() || undefined;
}

/** The public URL behind a reverse proxy, from the X-Forwarded-* headers it sets. */
function forwardedRequest(request: Request, incoming: Pick<IncomingMessage, 'headers'>): Request {
  const proto = firstHeader(incoming.headers['x-forwarded-proto']);
  const host = firstHeader(incoming.headers['x-forwarded-host']);
  if (proto === undefined && host === undefined) return request;
  const own = new URL(request.url);
  const url = new URL(
    `${own.pathname}${own.search}`,
    `${proto ?? own.protocol.slice(0, -1)}://${host ?? own.host}`,
  );
  const init: RequestInit & { duplex?: 'half' } = {
    method: request.method,
    headers: request.headers,
  };
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    init.body = request.body;
    init.duplex = 'half';
  }
  return new Request(url, init);
}

/**
 * Hands a body that a parser already read (express.json() mounted first) to the listener as the
 * raw body it reads instead of the spent stream.
 */
function keepParsedBody(request: MiddlewareRequest): void {
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

/**
 * The proxy as a node:http listener: `http.createServer(toNodeHandler(proxy))`. As middleware
 * (with `next`), requests outside the proxy's basePath are passed on.
 *
 * The request and response conversion is @hono/node-server's listener: a Request whose body is
 * read straight from the socket, without a web stream, unless something asks for `request.body`,
 * and a Response written in one go (see `overrideGlobalObjects`).
 */
export function toNodeHandler(proxy: BillingProxy, options: NodeHandlerOptions = {}): NodeHandler {
  const listener = getRequestListener(
    (request, { incoming }) =>
      proxy.handler(options.trustProxy ? forwardedRequest(request, incoming) : request),
    { overrideGlobalObjects: options.overrideGlobalObjects ?? true },
  );
  return (incoming: MiddlewareRequest, response, next) => {
    // Express strips its mount path from `url` but keeps it in `originalUrl`: basePath sees the
    // full path.
    const path = incoming.originalUrl ?? incoming.url ?? '/';
    if (next !== undefined && routePath(path.split('?')[0] ?? '/', proxy.basePath) === null) {
      next();
      return;
    }
    incoming.url = path;
    if (incoming.method !== 'GET' && incoming.method !== 'HEAD') keepParsedBody(incoming);
    listener(incoming, response).catch((error: unknown) => {
      if (next !== undefined) next(error);
      else if (!response.headersSent) {
        response.statusCode = 500;
        response.end();
      } else response.destroy();
    });
  };
}
