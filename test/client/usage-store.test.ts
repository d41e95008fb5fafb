import { expect } from '@open-wc/testing';
import { configureBilling } from '../../src/client/config.js';
import { getProxyClient } from '../../src/client/proxy-client.js';
import { getUsageStore, type UsageStoreState } from '../../src/client/usage-store.js';
import { BillingError } from '../../src/client/errors.js';
import {
  addFault,
  buyThroughProxy,
  freshStart,
  proxyRequestCount,
  sandbox,
  signIn,
  signOut,
  until,
} from '../browser/billing.js';
import { openFrame, type TestFrame } from '../browser/frames.js';

describe('usage store', () => {
  let frames: TestFrame[] = [];
  beforeEach(() => freshStart('healthy'));
  afterEach(() => {
    for (const frame of frames) frame.remove();
    frames = [];
  });

  // The service's texts (a usage's TitleLocalized) come in the language of the request: a page
  // that switches language asks again, rather than keep the first request's titles.
  it('asks for the usages in the page language, and again when it changes', async () => {
    const seatsTitle = () => getUsageStore().get('seats')?.TitleLocalized?.toString();
    const html = document.documentElement;
    const before = html.lang;
    const store = getUsageStore();
    const stop = store.subscribe(() => undefined);
    try {
      html.lang = 'fr';
      await store.load();
      expect(seatsTitle()).to.equal('Sièges');
      html.lang = 'en';
      await until(() => seatsTitle() === 'Seats', 'the usages in English');
      expect(await proxyRequestCount('GET', '/billing/usages')).to.equal(2);
      // Saved for the session with their language: back in French, asked again.
      store.clear();
      html.lang = 'fr';
      sessionStorage.setItem(
        'billing-elements:usages:/billing',
        JSON.stringify({ usages: [], at: Date.now(), language: 'en' }),
      );
      await store.load();
      expect(seatsTitle()).to.equal('Sièges');
    } finally {
      stop();
      html.lang = before;
    }
  });

  it('answers any number of concurrent callers with one GET /usages', async () => {
    const store = getUsageStore();
    const results = await Promise.all([
      store.load(),
      store.load(),
      getUsageStore('/billing/').load(),
    ]);
    expect(results[0]).to.equal(results[1]);
    expect(results[0].map((usage) => usage.ReferenceFeature)).to.deep.equal([
      'seats',
      'projects',
      'api-calls',
      'sso',
      'priority-support',
    ]);
    await store.load();
    expect(await proxyRequestCount('GET', '/billing/usages')).to.equal(1);
    expect(store.state.status).to.equal('ready');
  });

  it('keeps the usages for the browser session: another page of the app asks nothing', async () => {
    await getUsageStore().load();
    const other = await openFrame();
    frames.push(other);
    const usages = await other.window.billing.getUsageStore().load();
    expect(usages.find((usage) => usage.ReferenceFeature === 'seats')?.QuantityCurrent).to.equal(3);
    expect(await proxyRequestCount('GET', '/billing/usages')).to.equal(1);
  });

  it('asks the proxy when the saved usages are unreadable', async () => {
    const store = getUsageStore();
    const entries = ['{', 'null', '{"usages":"seats","at":1}', '{"usages":[]}', '{"at":1}'];
    for (const entry of entries) {
      store.clear();
      sessionStorage.setItem('billing-elements:usages:/billing', entry);
      const usages = await store.load();
      expect(usages.map((usage) => usage.ReferenceFeature)).to.include('seats');
    }
    expect(await proxyRequestCount('GET', '/billing/usages')).to.equal(entries.length);
  });

  it('answers entitlement questions for the host app', async () => {
    const store = getUsageStore();
    expect(store.isEntitled('seats')).to.equal(false);
    await store.load();
    expect(store.get('seats')?.QuantityIncluded).to.equal(5);
    expect(store.isEntitled('sso')).to.equal(true);
    expect(store.isEntitled('priority-support')).to.equal(false);
    expect(store.isEntitled('seats')).to.equal(true);
    expect(store.isEntitled('seats', 2)).to.equal(true);
    expect(store.isEntitled('seats', 3)).to.equal(false);
    expect(store.remaining('seats')).to.equal(2);
    expect(store.remaining('sso')).to.equal(undefined);
    expect(store.isEntitled('not-a-feature')).to.equal(false);
    expect(store.isEntitled('not-a-feature', 0)).to.equal(false);
    expect(store.isEntitled('api-calls', 0)).to.equal(true);
    expect(store.isEntitled('seats', Number.NaN)).to.equal(false);
  });

  it('treats unlimited access as always entitled', async () => {
    await freshStart('unlimited');
    const store = getUsageStore();
    await store.load();
    expect(store.isEntitled('seats', 1_000_000)).to.equal(true);
    expect(store.isEntitled('seats', Number.NaN)).to.equal(true);
    expect(store.remaining('seats')).to.equal(Number.POSITIVE_INFINITY);
  });

  it('refreshes on demand and tells its subscribers', async () => {
    // Counting the proxy's reads: no live stream here (it re-reads after the purchase's signal).
    configureBilling({ live: false });
    const store = getUsageStore();
    await store.load();
    const seen: UsageStoreState[] = [];
    const stop = store.subscribe((state) => seen.push(state));
    const client = getProxyClient();
    const pricing = await client.getPricing({ feature: 'seats', increment: 1 });
    await client.purchase({
      feature: 'seats',
      increment: 1,
      idempotencyKey: crypto.randomUUID(),
      confirmedAmountTotal: pricing.AmountTotal,
    });
    await store.refresh();
    stop();
    expect(store.get('seats')?.QuantityCurrent).to.equal(4);
    expect(seen.at(-1)?.status).to.equal('ready');
    expect(await proxyRequestCount('GET', '/billing/usages')).to.equal(2);
  });

  it('sends a change to the other open tabs', async () => {
    configureBilling({ live: false });
    const store = getUsageStore();
    await store.load();
    const other = await openFrame();
    frames.push(other);
    other.window.billing.configureBilling({ live: false });
    const otherStore = other.window.billing.getUsageStore();
    await otherStore.load();
    other.document.querySelector('main')!.innerHTML = '<usage-meter feature="seats"></usage-meter>';
    const meter = other.document.querySelector('usage-meter')!;
    await until(
      () => meter.shadowRoot?.querySelector('[role="meter"]') != null,
      'the other tab meter',
    );

    await buyThroughProxy('seats', 1);

    await until(
      () => otherStore.get('seats')?.QuantityCurrent === 4,
      'the other tab to hear the change',
    );
    await until(
      () =>
        meter.shadowRoot?.querySelector('[role="meter"]')?.getAttribute('aria-valuenow') === '4',
      'the other tab meter to update',
    );
    // The update travelled between tabs: nobody asked the proxy again.
    expect(await proxyRequestCount('GET', '/billing/usages')).to.equal(1);
  });

  it('forgets the usages on clear, here and in the other tabs', async () => {
    const store = getUsageStore();
    await store.load();
    const other = await openFrame();
    frames.push(other);
    const otherStore = other.window.billing.getUsageStore();
    await otherStore.load();
    store.clear();
    expect(store.state.status).to.equal('idle');
    expect(sessionStorage.length).to.equal(0);
    await until(() => otherStore.state.status === 'idle', 'the other tab to forget');
  });

  // Tabs of one site share its cookies: a sign-in in one is a sign-in in all. A page shows the
  // customer it was opened for, or says that another one is signed in now; never the other's.
  it('shows no other customer after a sign-in in another tab, and changes nothing', async () => {
    configureBilling({ live: false });
    const store = getUsageStore();
    await store.load();
    expect(store.get('seats')?.QuantityCurrent).to.equal(3);
    const other = await openFrame();
    frames.push(other);
    signIn('unlimited');
    // (Test frames share this page's session storage, which tabs do not: it asks the proxy.)
    const otherStore = other.window.billing.getUsageStore();
    await otherStore.refresh();
    expect(otherStore.get('seats')?.QuantityCurrent).to.equal(42);
    // The other tab's usages come, are not shown, and the proxy is asked who is signed in.
    await until(() => store.state.status === 'error', 'this tab to hear of the other customer');
    expect(store.state.error?.code).to.equal('session-changed');
    expect(store.state.usages).to.deep.equal([]);
    expect(store.get('seats')).to.equal(undefined);
    // A change this page sends is refused by the proxy, and nothing is bought for anyone.
    const before = await sandbox<{ appliedUsageChangesByCustomer: Record<string, number> }>(
      'stats',
    );
    const refused = await getProxyClient()
      .purchase({
        feature: 'seats',
        increment: 1,
        idempotencyKey: crypto.randomUUID(),
        confirmedAmountTotal: 0,
      })
      .catch((error: unknown) => error);
    expect((refused as BillingError).code).to.equal('session-changed');
    const after = await sandbox<{ appliedUsageChangesByCustomer: Record<string, number> }>('stats');
    expect(after.appliedUsageChangesByCustomer).to.deep.equal(before.appliedUsageChangesByCustomer);
    // Signed out and in (the host calls clear()), the page shows the customer signed in now.
    store.clear();
    await store.load();
    expect(store.get('seats')?.QuantityCurrent).to.equal(42);
  });

  it('refuses the answers about another customer signed in since, without another tab', async () => {
    const store = getUsageStore();
    await store.load();
    signIn('unlimited');
    const refreshed = await store.refresh().catch((error: unknown) => error);
    expect((refreshed as BillingError).code).to.equal('session-changed');
    expect(store.state.status).to.equal('error');
    expect(store.state.usages).to.deep.equal([]);
    // Nor does the tab's session keep the first customer's usages for its next page.
    expect(sessionStorage.length).to.equal(0);
  });

  it('reports a failed load as a BillingError with the proxy code, and recovers', async () => {
    signOut();
    const store = getUsageStore();
    const failure = await store.load().then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).to.be.instanceOf(BillingError);
    expect((failure as BillingError).code).to.equal('unauthenticated');
    expect((failure as BillingError).status).to.equal(401);
    expect(store.state.status).to.equal('error');
    await freshStart('healthy');
    await store.load();
    expect(store.state.status).to.equal('ready');
  });

  it('has usages only when ready, whatever happens', async () => {
    const store = getUsageStore();
    const seen: UsageStoreState[] = [];
    const stop = store.subscribe((state) => seen.push(state));
    await store.load();
    store.clear();
    signOut();
    await store.load().catch(() => undefined);
    await store.refresh().catch(() => undefined);
    await freshStart('healthy');
    await store.load();
    stop();
    expect(new Set(seen.map((state) => state.status))).to.have.all.keys(
      'idle',
      'loading',
      'ready',
      'error',
    );
    for (const state of seen)
      expect(state.usages.length > 0, state.status).to.equal(state.status === 'ready');
  });

  it('keeps the last usages when a refresh fails', async () => {
    const store = getUsageStore();
    await store.load();
    await addFault({ route: 'GET /v1/Usages', mode: 'status-500', times: 3 });
    const failure = await store.refresh().catch((error: unknown) => error);
    expect(failure).to.be.instanceOf(BillingError);
    expect(store.state.status).to.equal('ready');
    expect(store.state.error).to.equal(failure);
    expect(store.get('seats')?.QuantityCurrent).to.equal(3);
  });
});
