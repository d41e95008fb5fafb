import type { BillingProxy } from '../proxy.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler, type NodeHandlerOptions } from './node.js';

/**
 * Express middleware: `app.use(toExpressMiddleware(proxy))` (requests outside basePath go on to
 * the next middleware). Mount it before body parsers; after express.json() it still works.
 */
export function toExpressMiddleware(
  proxy: BillingProxy,
  options: NodeHandlerOptions = {},
): (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void {
  const handler = toNodeHandler(proxy, options);
  return (request, response, next) => handler(request, response, next);
}
