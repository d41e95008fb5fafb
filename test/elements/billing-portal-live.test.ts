import { expect, fixture, html } from '@open-wc/testing';
import '../../src/elements/billing-portal/define.js';
import type { BillingPortal } from '../../src/elements/billing-portal/billing-portal.js';
import { getUsageStore } from '../../src/client/usage-store.js';
import { sleep } from '../time.js';
import {
  buyThroughProxy,
  freshStart,
  nextEvent,
  proxyRequestCount,
  serviceApi,
  purchaseElsewhere,
  streamOpen,
  until,
} from '../browser/billing.js';

// The embedded portal follows the customer's billing, against the real proxy and sandbox: a
// change made elsewhere (another device: straight to the proxy, told by its event stream) or on
// the page (the usage store) opens the home page again, out of sight, when the frame is at rest;
// a frame the customer is in, or went on in, is left alone.

const iframeOf = (el: BillingPortal) => el.container?.querySelector('iframe') ?? null;
const portalOpenings = () => proxyRequestCount('GET', '/billing/portal');
/**
 * Longer than the element's settling of a change's signals (300 ms): a refresh it would make
 * has started by then, so a frame still in place after it was left alone.
 */
const SETTLED_MS = 800;

/** A portal on the home page, beside a button that holds the focus, its page loaded. */
async function portalAtHome(): Promise<{ el: BillingPortal; outside: HTMLButtonElement }> {
  const ready = nextEvent(document, 'billing-portal-ready', 10_000);
  const page = await fixture<HTMLElement>(
    html`<div>
      <button type="button">Elsewhere on the page</button>
      <billing-portal page="home"></billing-portal>
    </div>`,
  );
  const el = page.querySelector<BillingPortal>('billing-portal')!;
  const outside = page.querySelector('button')!;
  await ready;
  await streamOpen();
  outside.focus();
  return { el, outside };
}

/**
 * Watches that the frame never shows empty: at every change of the element's light DOM, a
 * container in view holds an iframe. Returns the function that stops watching and tells.
 */
function watchNeverEmpty(el: BillingPortal): () => string[] {
  const gaps: string[] = [];
  const observer = new MutationObserver(() => {
    const shown = [...el.children].filter(
      (child) => child instanceof HTMLElement && child.style.visibility !== 'hidden',
    );
    if (!shown.some((child) => child.querySelector('iframe')))
      gaps.push(`no iframe in view: ${el.innerHTML.slice(0, 200)}`);
    if (el.state !== 'open') gaps.push(`state ${el.state}`);
  });
  observer.observe(el, { childList: true, subtree: true });
  return () => {
    observer.disconnect();
    return gaps;
  };
}

describe('<billing-portal> follows the billing', function () {
  // A portal page loads twice per test, each through the proxy, the script and the sandbox.
  this.timeout(30_000);
  beforeEach(() => freshStart('healthy'));

  it('opens the home page again after a change made elsewhere: never empty, focus kept', async () => {
    const { el, outside } = await portalAtHome();
    const before = iframeOf(el)!;
    const openings = await portalOpenings();
    const stop = watchNeverEmpty(el);
    const ready = nextEvent(el, 'billing-portal-ready', 10_000);
    await purchaseElsewhere('seats');
    await ready;
    await until(() => iframeOf(el) !== before && iframeOf(el) !== null, 'the new frame in view');
    expect(stop()).to.deep.equal([]);
    expect(before.isConnected).to.equal(false);
    // One change, told twice (the proxy's signal, the service's notification): one refresh,
    // two when the second signal comes late.
    expect(await portalOpenings()).to.be.within(openings + 1, openings + 2);
    // One container in view, with the script's id; nothing moved the focus. (The proxy's
    // signal and the store's re-read may make a second refresh, loading out of sight.)
    const inView = [...el.querySelectorAll<HTMLElement>('[slot="portal"]')].filter(
      (container) => container.style.visibility !== 'hidden',
    );
    expect(inView).to.deep.equal([el.container]);
    expect(el.container!.id).to.equal('service_portal');
    expect(el.container!.style.cssText).to.equal('');
    expect(document.activeElement).to.equal(outside);
    expect(el.state).to.equal('open');
    expect(el.shadowRoot!.querySelector('[part~="status"]')).to.equal(null);
  });

  it('follows a change made on the page (the usage store), once', async () => {
    const { el, outside } = await portalAtHome();
    await getUsageStore().load();
    const before = iframeOf(el)!;
    const openings = await portalOpenings();
    await buyThroughProxy('seats', 1);
    await until(() => iframeOf(el) !== before && iframeOf(el) !== null, 'the new frame in view');
    // The proxy's signal of the same purchase may make one more; never a storm.
    await sleep(1500);
    expect(await portalOpenings()).to.be.within(openings + 1, openings + 2);
    expect(document.activeElement).to.equal(outside);
  });

  it('leaves a frame that holds the focus, and refreshes it once the focus leaves', async () => {
    const { el, outside } = await portalAtHome();
    const before = iframeOf(el)!;
    before.focus();
    expect(document.activeElement).to.equal(before);
    const openings = await portalOpenings();
    const updated = nextEvent(document, 'billing-updated', 10_000);
    await purchaseElsewhere('seats');
    await updated;
    await sleep(SETTLED_MS);
    expect(iframeOf(el)).to.equal(before);
    expect(await portalOpenings()).to.equal(openings);
    outside.focus();
    await until(() => iframeOf(el) !== before && iframeOf(el) !== null, 'the new frame in view');
    expect(document.activeElement).to.equal(outside);
  });

  it('leaves a page the customer went on to inside the frame', async () => {
    const { el } = await portalAtHome();
    const frame = iframeOf(el)!;
    const home = frame.src;
    // The customer follows the portal's Change plan link: the frame loads the service's page.
    const subscription = await serviceApi<{ Links: { rel: string; href: string }[] }>(
      'Subscription?ReferenceCustomer=healthy',
    );
    const upgrade = subscription.Links.find((link) => link.rel === 'hosted-upgrade')!.href;
    const moved = nextEvent(el, 'service-portal:page', 10_000);
    frame.src = upgrade;
    await moved;
    const openings = await portalOpenings();
    const updated = nextEvent(document, 'billing-updated', 10_000);
    await purchaseElsewhere('seats');
    await updated;
    await sleep(SETTLED_MS);
    expect(iframeOf(el)).to.equal(frame);
    expect(await portalOpenings()).to.equal(openings);
    // Back on the home page (loaded now: it shows the change), at rest again: the next change
    // refreshes it.
    const back = nextEvent(el, 'service-portal:page', 10_000);
    frame.src = home;
    await back;
    await purchaseElsewhere('seats');
    await until(() => iframeOf(el) !== frame && iframeOf(el) !== null, 'the new frame in view');
    expect(await portalOpenings()).to.be.above(openings);
  });

  it('leaves a workflow page it opened', async () => {
    const ready = nextEvent(document, 'billing-portal-ready', 10_000);
    const page = await fixture<HTMLElement>(
      html`<div><billing-portal page="register"></billing-portal></div>`,
    );
    const el = page.querySelector<BillingPortal>('billing-portal')!;
    await ready;
    await streamOpen();
    const frame = iframeOf(el)!;
    const openings = await portalOpenings();
    const updated = nextEvent(document, 'billing-updated', 10_000);
    await purchaseElsewhere('seats');
    await updated;
    await sleep(SETTLED_MS);
    expect(iframeOf(el)).to.equal(frame);
    expect(await portalOpenings()).to.equal(openings);
  });
});
