import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/elements/billing-portal/define.js';
// <buy-feature> registers texts of its own: the portal's words must not be taken for them.
import '../../src/elements/buy-feature/define.js';
import type { BillingPortal } from '../../src/elements/billing-portal/billing-portal.js';
import type { BuyFeature } from '../../src/elements/buy-feature/buy-feature.js';
import { openPortalPage } from '../../src/elements/billing-portal/open.js';
import { getUsageStore } from '../../src/client/usage-store.js';
import { focusedOpener, freshStart, sandbox, until } from '../browser/billing.js';
import { openFrame, type TestFrame } from '../browser/frames.js';

// <billing-portal> and the modal portal of the remedies: a title per task, Done when
// the workflow completes, the focus back where it was, a frame that follows its content, a
// bottom sheet on a phone, and one message per cause of a refused page.

const part = (el: Element, name: string) =>
  el.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
const text = (node: Element | null | undefined) =>
  (node?.textContent ?? '').replace(/\s+/g, ' ').trim();

/** The modal portal of `openPortalPage` (a <billing-portal> at the end of the body). */
function modalPortal(): BillingPortal {
  const portal = document.querySelector<BillingPortal>('body > billing-portal');
  if (!portal) throw new Error('no modal portal');
  return portal;
}

const modalTitle = () => text(modalPortal().shadowRoot!.getElementById('title'));

function closeModals(): void {
  for (const portal of document.querySelectorAll('body > billing-portal')) {
    portal.shadowRoot?.querySelector('dialog')?.close();
    portal.remove();
  }
}

/** What the portal script does when the hosted page reports a completed workflow. */
function completeWorkflow(workflow: string): void {
  modalPortal().container!.dispatchEvent(
    new CustomEvent('service-portal:complete', {
      bubbles: true,
      composed: true,
      detail: { workflow },
    }),
  );
}

async function settled(el: BillingPortal): Promise<void> {
  await until(() => el.state === 'open' || el.state === 'error', 'the portal to settle', 8000);
}

describe('<billing-portal> states', () => {
  /** A page on a 360 × 740 phone screen, in every engine: the app in a frame of that size. */
  let phone: TestFrame | undefined;
  const openPhone = async () => (phone = await openFrame({ width: 360, height: 740 }));
  const phonePortal = (frame: TestFrame) =>
    frame.document.querySelector<BillingPortal>('body > billing-portal')!;

  afterEach(() => {
    closeModals();
    phone?.remove();
    phone = undefined;
  });

  it('says it is loading until its frame has loaded its page, the frame unseen till then', async () => {
    await freshStart('healthy');
    const el = document.createElement('billing-portal') as BillingPortal;
    el.page = 'home';
    // What each render showed, and whether the frame had loaded by then.
    // (Heard by the document first: the element hears it next, and re-renders at once.)
    let frameLoaded = false;
    const onLoad = (event: Event) => {
      if (event.target instanceof HTMLIFrameElement && el.contains(event.target))
        frameLoaded = true;
    };
    document.addEventListener('load', onLoad, true);
    const renders: { state: string; status: boolean; hidden: boolean; frameLoaded: boolean }[] = [];
    el.addController({
      hostUpdated() {
        const frame = part(el, 'frame');
        renders.push({
          state: el.state,
          status: text(part(el, 'status')) === 'Opening the billing portal…',
          hidden: frame !== null && getComputedStyle(frame).visibility === 'hidden',
          frameLoaded,
        });
      },
    });
    await fixture(html`<div>${el}</div>`);
    await settled(el);
    await until(() => frameLoaded && !part(el, 'status'), 'the frame loaded and shown');
    document.removeEventListener('load', onLoad, true);
    // Open before its page loaded: the status, and no empty frame.
    const openLoading = renders.filter((render) => render.state === 'open' && !render.frameLoaded);
    expect(openLoading.length).to.be.greaterThan(0);
    for (const render of openLoading)
      expect([render.status, render.hidden]).to.deep.equal([true, true]);
    const last = renders.at(-1)!;
    expect([last.state, last.status, last.hidden]).to.deep.equal(['open', false, false]);
    await expect(el).to.be.accessible();
  });

  it('the modal is titled by its task', async () => {
    const cases = [
      ['suspended', 'restart', 'Restart your subscription'],
      ['no-payment-method', 'register', 'Add a payment method'],
      ['healthy', 'change-plan', 'Change plan'],
      ['pending', 'subscribe', 'Complete your subscription'],
      ['capping-reached', 'pay-invoice', 'Pay overdue invoices'],
    ] as const;
    for (const [customer, page, title] of cases) {
      await freshStart(customer);
      await openPortalPage({ page });
      expect(modalTitle(), page).to.equal(title);
      await expect(modalPortal()).to.be.accessible();
      closeModals();
    }
  });

  it('closes on Escape pressed inside its frame, and gives the focus back', async () => {
    await freshStart('healthy');
    const opener = focusedOpener('Change plan');
    try {
      await openPortalPage({ page: 'change-plan' }, { from: opener });
      const portal = modalPortal();
      const frame = () => portal.querySelector('iframe');
      // Open, and its status gone: the frame has loaded its page.
      await until(
        () => frame() !== null && portal.state === 'open' && !part(portal, 'status'),
        'the hosted page',
      );
      // Keyboard events inside the frame stay in its document: the hosted page tells it.
      frame()!.focus();
      await sendKeys({ press: 'Tab' });
      await sendKeys({ press: 'Escape' });
      await until(() => !portal.isConnected, 'the modal to close');
      expect(document.activeElement).to.equal(opener);
    } finally {
      opener.remove();
    }
  });

  it('offers Done once the workflow completes, and gives the focus back', async () => {
    await freshStart('healthy');
    const opener = focusedOpener('Change plan');
    try {
      await openPortalPage({ page: 'change-plan' }, { from: opener });
      const close = part(modalPortal(), 'close')!;
      expect(text(close)).to.equal('Close');
      completeWorkflow('upgrade');
      await until(() => text(part(modalPortal(), 'close')) === 'Done', 'Done');
      expect(part(modalPortal(), 'close')!.classList.contains('primary')).to.equal(true);
      await expect(modalPortal()).to.be.accessible();
      const portal = modalPortal();
      part(portal, 'close')!.click();
      await until(() => !portal.isConnected, 'the modal to close');
      expect(document.activeElement).to.equal(opener);
    } finally {
      opener.remove();
    }
  });

  it('the focus goes back to the element whose remedy opened it, when that remedy is gone', async () => {
    await freshStart('no-payment-method');
    const element = await fixture<BuyFeature>(html`<buy-feature feature="seats"></buy-feature>`);
    await waitUntil(() => part(element, 'remedy') !== null, 'the remedy', { timeout: 8000 });
    part(element, 'remedy')!.focus();
    part(element, 'remedy')!.click();
    await until(() => document.querySelector('body > billing-portal') !== null, 'the modal');
    const portal = modalPortal();
    await settled(portal);
    // The workflow fixed the refusal: the remedy button leaves with it.
    await sandbox('customers/no-payment-method/payment-method', { state: 'valid' });
    completeWorkflow('register');
    await getUsageStore().refresh();
    await waitUntil(() => part(element, 'remedy') === null, 'the remedy is gone', {
      timeout: 8000,
    });
    await until(() => text(part(portal, 'close')) === 'Done', 'Done');
    part(portal, 'close')!.click();
    await until(() => !portal.isConnected, 'the modal to close');
    expect(document.activeElement).to.equal(element);
  });

  it('the hosted page reports its content height, so the frame shrinks to it', async () => {
    await freshStart('healthy');
    await openPortalPage({ page: 'home' });
    const portal = modalPortal();
    await until(() => portal.container?.querySelector('iframe') !== null, 'the frame');
    const src = portal.container!.querySelector('iframe')!.src;
    closeModals();
    // The same page in a frame far taller than it: it says how tall its content is.
    const frame = document.createElement('iframe');
    frame.style.cssText = 'width: 800px; height: 1500px; border: 0';
    const heights: number[] = [];
    const listener = (event: MessageEvent) => {
      const data = event.data as { source?: string; type?: string; height?: number };
      if (event.source === frame.contentWindow && data?.type === 'resize')
        heights.push(data.height!);
    };
    window.addEventListener('message', listener);
    frame.src = src;
    document.body.append(frame);
    try {
      await until(() => heights.length > 0, 'a resize message', 8000);
      expect(heights.at(-1)!).to.be.below(1200);
    } finally {
      window.removeEventListener('message', listener);
      frame.remove();
    }
  });

  it('on a phone the modal is a bottom sheet as wide as the screen', async () => {
    await freshStart('healthy');
    const frame = await openPhone();
    await frame.window.billing.openPortalPage({ page: 'home' });
    const portal = phonePortal(frame);
    const box = portal.shadowRoot!.querySelector('dialog')!.getBoundingClientRect();
    expect(Math.round(box.left)).to.equal(0);
    expect(Math.round(box.width)).to.equal(360);
    expect(Math.round(box.bottom)).to.equal(740);
    // The same modal, on this page, passes axe (axe reads one document: this one).
    await openPortalPage({ page: 'home' });
    await expect(modalPortal()).to.be.accessible();
  });

  it('at 360 px the portal frame takes the whole width of the sheet', async () => {
    await freshStart('starter-plan');
    const frame = await openPhone();
    await frame.window.billing.openPortalPage({ page: 'change-plan' });
    const portal = phonePortal(frame);
    await until(() => portal.container?.querySelector('iframe') != null, 'the frame');
    const hosted = portal.container!.querySelector('iframe')!.getBoundingClientRect();
    expect(hosted.width).to.be.at.least(344);
  });

  it('an unknown page has its own words, no retry, and one console line', async () => {
    await freshStart('healthy');
    const lines: string[] = [];
    const original = console.warn;
    console.warn = (...args: unknown[]) => lines.push(args.map(String).join(' '));
    let el: BillingPortal;
    try {
      el = await fixture<BillingPortal>(html`<billing-portal page="invoices"></billing-portal>`);
      await settled(el);
      el.requestUpdate();
      await el.updateComplete;
    } finally {
      console.warn = original;
    }
    expect(el.state).to.equal('error');
    expect(text(part(el, 'message'))).to.include('This page of the billing portal does not exist');
    expect(part(el, 'retry')).to.equal(null);
    const ours = lines.filter((line) => line.includes('billing-elements'));
    expect(ours).to.have.length(1);
    expect(ours[0]).to.include('"invoices"').and.to.include('home');
    await expect(el).to.be.accessible();
  });

  it('a page that does not apply now says why, in its own words', async () => {
    await freshStart('healthy');
    const restart = await fixture<BillingPortal>(
      html`<billing-portal page="restart"></billing-portal>`,
    );
    await settled(restart);
    expect(text(part(restart, 'message'))).to.include('nothing to restart');
    await freshStart('no-subscription');
    const invoice = await fixture<BillingPortal>(
      html`<billing-portal page="change-plan"></billing-portal>`,
    );
    await settled(invoice);
    const said = text(part(invoice, 'message'));
    expect(said).not.to.include('quantity');
    expect(said).not.to.equal(text(part(restart, 'message')));
  });

  it('the keyboard closes the modal with Escape, the focus back on the opener', async () => {
    await freshStart('healthy');
    const opener = focusedOpener('Billing');
    try {
      await openPortalPage({ page: 'home' }, { from: opener });
      const portal = modalPortal();
      await sendKeys({ press: 'Escape' });
      await until(() => !portal.isConnected, 'the modal to close');
      expect(document.activeElement).to.equal(opener);
    } finally {
      opener.remove();
    }
  });
});
