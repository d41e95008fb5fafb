// The billing proxy: the credentials stay on the server, the customer comes from your session.
import { createBillingProxy } from 'billing-elements/server';

export const billing = createBillingProxy({
  baseUrl: process.env.BILLING_API_URL,
  agentKey: process.env.BILLING_AGENT_KEY,
  apiKey: process.env.BILLING_API_KEY,
  businessId: Number(process.env.BILLING_BUSINESS_ID),
  segment: process.env.BILLING_SEGMENT,
  portalScriptUrl: process.env.BILLING_PORTAL_SCRIPT_URL,
  portalSecret: process.env.BILLING_PORTAL_SECRET,
  basePath: '/billing',
  // Your app's session goes here. This example signs everyone in as the sandbox's "healthy"
  // customer; never take the customer from the browser.
  identify: () => ({ reference: 'healthy' }),
});
