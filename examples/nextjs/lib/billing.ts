import { createBillingProxy } from 'billing-elements/server';

// The options as a function: read at the first request (or at check(), in instrumentation.ts),
// so that `next build` runs without the billing secrets, which arrive at run time.
export const billing = createBillingProxy(() => ({
  baseUrl: process.env.BILLING_API_URL!,
  agentKey: process.env.BILLING_AGENT_KEY!,
  apiKey: process.env.BILLING_API_KEY!,
  businessId: Number(process.env.BILLING_BUSINESS_ID),
  segment: process.env.BILLING_SEGMENT!,
  portalScriptUrl: process.env.BILLING_PORTAL_SCRIPT_URL!,
  portalSecret: process.env.BILLING_PORTAL_SECRET!,
  basePath: '/billing',
  // `next start` gives route handlers a request.url on localhost:PORT: behind a reverse proxy
  // that sets X-Forwarded-Host and X-Forwarded-Proto, the public origin is read from them.
  trustProxy: true,
  // Your app's session goes here (cookies, your auth library); never the browser's say-so.
  identify: () => ({ reference: currentCustomer() }),
}));

/** The signed-in customer: this example signs everyone in as the sandbox's "healthy". */
export function currentCustomer(): string {
  return 'healthy';
}
