import { expect } from '@open-wc/testing';
import { configureBilling } from '../../src/client/config.js';
import { getProxyClient, ProxyClient } from '../../src/client/proxy-client.js';
import {
  addFault,
  freshStart,
  testEnv,
  failure,
  proxyRequestCount,
  requestsAfter,
} from '../browser/billing.js';

describe('proxy client', () => {
  beforeEach(() => freshStart('healthy'));

  it('is one client per endpoint, the page default being /billing', () => {
    expect(getProxyClient()).to.equal(getProxyClient('/billing'));
    expect(getProxyClient().endpoint).to.equal('/billing');
    configureBilling({ endpoint: '/billing-flaky' });
    expect(getProxyClient().endpoint).to.equal('/billing-flaky');
    expect(getProxyClient('/billing')).to.be.instanceOf(ProxyClient);
  });

  it('says an origin is refused (not "unreachable") by a proxy on another origin, once in the console', async () => {
    // The same test server under its other name: another origin, not in allowedOrigins.
    const other = new URL(location.href);
    other.hostname = other.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
    const endpoint = `${other.origin}/billing`;
    const logged: unknown[][] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void logged.push(args);
    try {
      const first = await failure(getProxyClient(endpoint).getUsages());
      expect(first.code).to.equal('forbidden-origin');
      expect(first.status).to.equal(403);
      const second = await failure(getProxyClient(endpoint).getUsages());
      expect(second.code).to.equal('forbidden-origin');
    } finally {
      console.error = original;
    }
    expect(logged).to.have.length(1);
    expect(String(logged[0]![0])).to.include(
      `The origin ${location.origin} is not in allowedOrigins`,
    );
  });

  it('prices a change without applying it', async () => {
    const pricing = await getProxyClient().getPricing({ feature: 'seats', increment: 3 });
    expect(pricing.ReferenceFeature).to.equal('seats');
    expect(pricing.Currency).to.equal('USD');
    expect(pricing.NextTerm).to.not.equal(undefined);
    const { usages } = await getProxyClient().getUsages();
    expect(usages.find((usage) => usage.ReferenceFeature === 'seats')?.QuantityCurrent).to.equal(3);
  });

  it('gets the opening parameters of the portal and in-site links', async () => {
    const env = await testEnv();
    const portal = await getProxyClient().getPortal({ page: 'change-plan', offer: 'business' });
    expect(portal.scriptUrl).to.equal(env.portalScriptUrl);
    expect(portal.hostedOrigin).to.equal(env.sandboxUrl);
    expect(portal.params.customer_ref).to.equal('healthy');
    expect(portal.params.hash).to.match(/^[0-9a-f]{64}$/);
    const { url } = await getProxyClient().getLinks({ page: 'home' });
    expect(url.startsWith(`${env.sandboxUrl}/insite?pa_query=`)).to.equal(true);
    const status = await getProxyClient().getSubscription();
    expect(status.status).to.equal('running');
  });

  it("carries the proxy's error code and status", async () => {
    await freshStart('starter-plan');
    const error = await failure(getProxyClient().getPricing({ feature: 'seats', increment: 1 }));
    expect(error.code).to.equal('Error.Api.Usage.NoneMatching');
    // A preview of what the customer cannot buy yet is answered 200 with its refusal: a state
    // of the customer, not a failed request in the page's console.
    expect(error.status).to.equal(200);
    expect(error.retryable).to.equal(false);
  });

  it('gives up after the configured time with a timeout error', async () => {
    configureBilling({ timeoutMs: 300 });
    await addFault({ route: 'GET /v1/Usages', mode: 'delay', delayMs: 1500 });
    const error = await failure(getProxyClient().getUsages());
    expect(error.code).to.equal('timeout');
    expect(error.retryable).to.equal(true);
  });

  it('tells an abort by the caller apart', async () => {
    await addFault({ route: 'GET /v1/Usages', mode: 'delay', delayMs: 1000 });
    const controller = new AbortController();
    const before = await proxyRequestCount('GET', '/billing/usages');
    const pending = getProxyClient().getUsages(controller.signal);
    // Aborted while the request is under way (the service holds its answer a second).
    await requestsAfter('GET', '/billing/usages', before);
    controller.abort();
    expect((await failure(pending)).code).to.equal('aborted');
  });

  it('reports an unreachable proxy as a network error', async () => {
    const error = await failure(getProxyClient('http://127.0.0.1:9').getUsages());
    expect(error.code).to.equal('network');
    expect(error.status).to.equal(0);
  });
});
