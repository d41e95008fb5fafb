import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BillingProxyOptions } from '../options.js';
import { createBillingProxy } from '../proxy.js';
import { toNodeHandler } from './node.js';

type Middleware = (
  request: IncomingMessage,
  response: ServerResponse,
  next: (error?: unknown) => void,
) => void;

/** The part of Vite's dev and preview servers the plugin uses (no import of Vite itself). */
export interface ViteServerLike {
  middlewares: {
    use(middleware: Middleware): unknown;
    /** Connect's middleware list, in order. */
    stack?: { route: string; handle: unknown }[];
  };
}

export type BillingProxyVitePluginOptions = BillingProxyOptions;

/**
 * Mounts the proxy on Vite's dev server (and `vite preview`): `plugins: [billingProxyVitePlugin({...})]`.
 * basePath defaults to '/billing', the elements' default endpoint.
 *
 * The options (an object, or a function that returns them) are checked when the dev or preview
 * server starts, which then fails with every problem named: `vite build` does not need the
 * billing secrets.
 */
export function billingProxyVitePlugin(
  options: BillingProxyVitePluginOptions | (() => BillingProxyVitePluginOptions),
) {
  const read = typeof options === 'function' ? options : () => options;
  const proxy = createBillingProxy(() => {
    const given = read();
    return { ...given, basePath: given.basePath ?? '/billing' };
  });
  const handler = toNodeHandler(proxy);
  const middleware: Middleware = (request, response, next) => handler(request, response, next);
  const mount = (server: ViteServerLike) => {
    proxy.check();
    // Vite answers CORS preflights itself before the plugins' middlewares (its `server.cors`,
    // on by default for localhost origins), without Access-Control-Allow-Credentials: the
    // proxy's own answer for its allowedOrigins must come first. It goes right before Vite's.
    const stack = server.middlewares.stack;
    const cors = stack?.findIndex((layer) => {
      const handle = layer.handle as { name?: string } | null;
      return handle?.name === 'corsMiddleware';
    });
    if (stack !== undefined && cors !== undefined && cors >= 0)
      stack.splice(cors, 0, { route: '', handle: middleware });
    else server.middlewares.use(middleware);
  };
  return {
    name: 'billing-elements:proxy',
    configureServer: mount,
    configurePreviewServer: mount,
    /** The proxy the plugin mounts (its `notify()`, `isEntitled()`...). */
    proxy,
  };
}
