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
  middlewares: { use(middleware: Middleware): unknown };
}

export type BillingProxyVitePluginOptions = BillingProxyOptions;

/**
 * Mounts the proxy on Vite's dev server (and `vite preview`): `plugins: [billingProxyVitePlugin({...})]`.
 * basePath defaults to '/billing', the elements' default endpoint. The options are checked when
 * the config loads.
 */
export function billingProxyVitePlugin(options: BillingProxyVitePluginOptions) {
  const proxy = createBillingProxy({ ...options, basePath: options.basePath ?? '/billing' });
  const handler = toNodeHandler(proxy);
  const mount = (server: ViteServerLike) => {
    server.middlewares.use((request, response, next) => handler(request, response, next));
  };
  return {
    name: 'billing-elements:proxy',
    configureServer: mount,
    configurePreviewServer: mount,
    /** The proxy the plugin mounts (its `notify()`, `isEntitled()`...). */
    proxy,
  };
}
