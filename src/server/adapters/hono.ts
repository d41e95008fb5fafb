import type { BillingProxy } from '../proxy.js';

/** What the handler needs of Hono's context (no import of Hono itself). */
export interface HonoContextLike {
  req: { raw: Request };
}

/** A Hono handler: `app.all('/billing/*', toHonoHandler(proxy))`. */
export function toHonoHandler(
  proxy: BillingProxy,
): (context: HonoContextLike) => Promise<Response> {
  return (context) => proxy.handler(context.req.raw);
}
