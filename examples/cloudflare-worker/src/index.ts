// The billing proxy as a Cloudflare Worker, for a site with no server of its own (a no-code site
// builder's pages): it holds the billing service's credentials, learns who the visitor is from
// the signed token (JWT) the site's sign-in gives the page, and receives the service's signed
// notifications for the pages' live updates. Settings: wrangler.jsonc ("vars") and secrets.
import {
  createDurableObjectIdempotencyStore,
  createDurableObjectSignalBus,
  identifyWithJwt,
  toWorkerHandler,
  type DurableObjectNamespaceLike,
} from 'billing-elements/server/worker';

// The Durable Object classes of the store and the bus, under the names wrangler.jsonc binds.
export { BillingIdempotencyObject, BillingSignalsObject } from 'billing-elements/server/worker';

/** What the Worker receives: the vars of wrangler.jsonc, the secrets and the two bindings. */
export interface Env {
  BILLING_API_URL: string;
  BILLING_BUSINESS_ID: string;
  BILLING_SEGMENT: string;
  BILLING_PORTAL_SCRIPT_URL: string;
  BILLING_WEBHOOK_KEY: string;
  ALLOWED_ORIGINS: string;
  JWT_JWKS_URL: string;
  JWT_ISSUER: string;
  JWT_AUDIENCE: string;
  JWT_CLAIM: string;
  /** Secrets (`npx wrangler secret put NAME`). */
  BILLING_AGENT_KEY: string;
  BILLING_API_KEY: string;
  BILLING_PORTAL_SECRET: string;
  BILLING_WEBHOOK_SECRET: string;
  BILLING_IDEMPOTENCY: DurableObjectNamespaceLike;
  BILLING_SIGNALS: DurableObjectNamespaceLike;
}

/** "https://a.example, https://b.example" as a list; an empty entry is skipped. */
const listOf = (value: string) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');

export default toWorkerHandler((env: Env) => ({
  baseUrl: env.BILLING_API_URL,
  agentKey: env.BILLING_AGENT_KEY,
  apiKey: env.BILLING_API_KEY,
  businessId: Number(env.BILLING_BUSINESS_ID),
  segment: env.BILLING_SEGMENT,
  portalScriptUrl: env.BILLING_PORTAL_SCRIPT_URL,
  portalSecret: env.BILLING_PORTAL_SECRET,
  // The elements' `endpoint`: https://<your worker>/billing.
  basePath: '/billing',
  allowedOrigins: listOf(env.ALLOWED_ORIGINS),
  // The visitor's token, checked against the identity provider's public keys: its signature,
  // issuer, audience and expiry. The claim names the customer; nothing else from the browser is.
  identify: identifyWithJwt({
    jwks: env.JWT_JWKS_URL,
    issuer: env.JWT_ISSUER,
    audience: env.JWT_AUDIENCE,
    claim: env.JWT_CLAIM,
  }),
  // The service's notifications, at https://<your worker>/billing/webhooks.
  notifications: {
    secret: env.BILLING_WEBHOOK_SECRET,
    ...(env.BILLING_WEBHOOK_KEY === '' ? {} : { key: env.BILLING_WEBHOOK_KEY }),
  },
  idempotencyStore: createDurableObjectIdempotencyStore(env.BILLING_IDEMPOTENCY),
  signals: createDurableObjectSignalBus(env.BILLING_SIGNALS),
}));
