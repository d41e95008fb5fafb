// The app's server, at http://127.0.0.1:4100: the billing proxy, which lets the site's pages
// (another origin) call it with credentials.
import { createServer } from 'node:http';
import { createBillingProxy, toNodeHandler } from 'billing-elements/server';

const billing = createBillingProxy({
  baseUrl: process.env.BILLING_API_URL,
  agentKey: process.env.BILLING_AGENT_KEY,
  apiKey: process.env.BILLING_API_KEY,
  businessId: Number(process.env.BILLING_BUSINESS_ID),
  segment: process.env.BILLING_SEGMENT,
  portalScriptUrl: process.env.BILLING_PORTAL_SCRIPT_URL,
  portalSecret: process.env.BILLING_PORTAL_SECRET,
  basePath: '/billing',
  // The site's origin: scheme, host and port.
  allowedOrigins: ['http://localhost:4102'],
  // Your app's session goes here (its cookie must reach this origin: see docs/no-code.md).
  identify: () => ({ reference: 'healthy' }),
});

createServer(toNodeHandler(billing)).listen(4100, '127.0.0.1');
