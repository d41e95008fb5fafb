import type * as HonoNodeServer from '@hono/node-server';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { routePath, type BillingProxy } from '../proxy.js';

type NodeServer = typeof HonoNodeServer;
type Listener = ReturnType<NodeServer['getRequestListener']>;

/** The version range of @hono/node-server the adapter is built and tested with. */
const NODE_SERVER_RANGE = '^2.1.8';

let nodeServer: Promise<NodeServer> | undefined;

/**
 * @hono/node-server, an optional peer dependency: only the Node, Express and Vite adapters need
 * it, so it is loaded when one is created, and a missing one says what to install. The import is
 * left to the runtime (not followed by a bundler): a Next.js or Workers app that never creates a
 * Node adapter builds without it.
 */
function loadNodeServer(): Promise<NodeServer> {
  nodeServer ??= import(/* webpackIgnore: true */ /* @vite-ignore */ '@hono/node-server').catch(
    (cause: unknown) => {
      nodeServer = undefined;
      throw new Error(
        `billing-elements/server: toNodeHandler (and the Express and Vite adapters) needs @hono/node-server. Install it: npm install @hono/node-server@${NODE_SERVER_RANGE}`,
        { cause },
      );
    },
  );
  return nodeServer;
}

export interface NodeHandlerOptions {
  /**
   * Let @hono/node-server install its lightweight `Request` and `Response` as the process's
   * globals, as a Hono app on Node does: a JSON answer is then written without a web stream, at
   * about two thirds of the CPU per request. Off by default: the host app's globals are its own
   * (with them replaced, `(await fetch(url)) instanceof Response` is false in the whole
   * process, and a `request.clone()` is not `instanceof` the global Request).
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
  let listener: Listener | undefined;
  const ready = loadNodeServer().then(({ getRequestListener }) => {
    listener = getRequestListener(
      (request, { incoming }) =>
        proxy.handler(options.trustProxy ? forwardedRequest(request, incoming) : request),
      { overrideGlobalObjects: options.overrideGlobalObjects ?? false },
    );
    return listener;
  });
  // Said once at start-up, not only to the first request: a missing peer is a setup mistake.
  ready.catch((error: unknown) => console.error((error as Error).message));
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
    const served = listener
      ? listener(incoming, response)
      : ready.then((loaded) => loaded(incoming, response));
    served.catch((error: unknown) => {
      if (next !== undefined) next(error);
      else if (!response.headersSent) {
        response.statusCode = 500;
        response.end();
      } else response.destroy();
    });
  };
}
