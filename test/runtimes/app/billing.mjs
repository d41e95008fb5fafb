// The proxy every runtime of the test runs, over the sandbox that `config` names (process.env
// on Node, Bun and Deno; the Worker's env on Cloudflare Workers).
export function billingOptions(config) {
  return {
    baseUrl: config.SANDBOX_URL,
    agentKey: config.AGENT_KEY,
    apiKey: config.API_KEY,
    businessId: Number(config.BUSINESS_ID),
    segment: config.SEGMENT,
    portalScriptUrl: `${config.SANDBOX_URL}/portal.js`,
    portalSecret: config.PORTAL_SECRET,
    basePath: '/billing',
    // The app's session: a cookie names the customer.
    identify: (request) => {
      const match = /(?:^|;\s*)session=([^;]+)/.exec(request.headers.get('cookie') ?? '');
      return match ? { reference: decodeURIComponent(match[1]) } : null;
    },
    notifications: { secret: config.WEBHOOK_SECRET, key: config.WEBHOOK_KEY },
  };
}
