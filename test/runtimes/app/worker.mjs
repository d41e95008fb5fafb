// The proxy as a Cloudflare Worker, with its idempotency store and signal bus on Durable
// Objects: its settings come from the Worker's env (vars and secrets). The test runs it twice in
// one `wrangler dev` (wrangler.jsonc, and wrangler.other.jsonc whose store and bus are this
// Worker's objects): two isolates that share no memory, as a deployed Worker's are. The first
// reaches the second under /other.
import {
  BillingIdempotencyObject,
  BillingSignalsObject,
  createDurableObjectIdempotencyStore,
  createDurableObjectSignalBus,
  toWorkerHandler,
} from 'billing-elements/server/worker';
import { billingOptions } from './billing.mjs';

export { BillingIdempotencyObject, BillingSignalsObject };

const billing = toWorkerHandler((env) => ({
  ...billingOptions(env),
  idempotencyStore: createDurableObjectIdempotencyStore(env.BILLING_IDEMPOTENCY),
  signals: createDurableObjectSignalBus(env.BILLING_SIGNALS),
}));

// The in-memory defaults, under /plain: the proxy warns of them when it is made.
const plain = toWorkerHandler((env) => ({ ...billingOptions(env), basePath: '/plain' }));

/** Test only: one call of the Durable Object store, `{ op, args }`, answered `{ result }`. */
async function storeCall(request, env) {
  const { op, args } = await request.json();
  const store = createDurableObjectIdempotencyStore(env.BILLING_IDEMPOTENCY);
  if (!['get', 'setIfAbsent', 'compareAndSet', 'compareAndDelete'].includes(op))
    return Response.json({ error: `no store operation ${op}` }, { status: 400 });
  try {
    return Response.json({ result: await store[op](...args) });
  } catch (error) {
    return Response.json({ error: String(error) }, { status: 500 });
  }
}

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    if (env.OTHER !== undefined && url.pathname.startsWith('/other/')) {
      url.pathname = url.pathname.slice('/other'.length);
      return env.OTHER.fetch(new Request(url, request));
    }
    if (url.pathname === '/test/idempotency-store' && request.method === 'POST')
      return storeCall(request, env);
    if (url.pathname.startsWith('/plain/')) return plain.fetch(request, env, ctx);
    return billing.fetch(request, env, ctx);
  },
};
