import type { BillingProxy } from '../proxy.js';

type RouteHandler = (request: Request) => Promise<Response>;

/**
 * Next.js App Router handlers, for `app/billing/[...path]/route.ts`:
 * `export const { GET, POST, OPTIONS } = toNextHandlers(proxy);`
 */
export function toNextHandlers(proxy: BillingProxy): {
  GET: RouteHandler;
  POST: RouteHandler;
  OPTIONS: RouteHandler;
} {
  const handle: RouteHandler = (request) => proxy.handler(request);
  return { GET: handle, POST: handle, OPTIONS: handle };
}
