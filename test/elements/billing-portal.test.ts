import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/elements/billing-portal/define.js';
import '../../src/elements/usage-meter/define.js';
import { BillingPortal } from '../../src/elements/billing-portal/billing-portal.js';
import type { UsageMeter } from '../../src/elements/usage-meter/usage-meter.js';
import { configureBilling } from '../../src/client/config.js';
import { loadLanguage } from '../../src/client/i18n.js';
import { openPortalPage } from '../../src/elements/billing-portal/open.js';
import { canHoldKeys } from '../browser/engine.js';
import {
  freshStart,
  nextEvent,
  proxyRequestCount,
  requestsAfter,
  sandbox,
  setFlakyPortalScript,
  testEnv,
  testStats,
  until,
} from '../browser/billing.js';

const part = (el: Element, name: string) =>
  el.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
const text = (node: Element | null | undefined) =>
  (node?.textContent ?? '').replace(/\s+/g, ' ').trim();
const settled = (el: BillingPortal) =>
  until(
    () => el.state === 'open' || el.state === 'error',
    `<billing-portal> to open (state ${el.state})`,
    8000,
  );
/** The same nodes in the same order (a deep comparison of nodes would walk the whole DOM). */
const sameNodes = (actual: Node[], expected: Node[]) =>
  actual.length === expected.length && actual.every((node, index) => node === expected[index]);
const iframeOf = (el: BillingPortal) => el.container?.querySelector('iframe') ?? null;

describe('<billing-portal>', () => {
  beforeEach(() => freshStart('healthy'));

  it('embeds the portal in a light-DOM container found by id', async () => {
    const env = await testEnv();
    const ready = new Promise<Event>((resolve) =>
      document.addEventListener('billing-portal-ready', resolve, { once: true }),
    );
    const el = await fixture<BillingPortal>(html`<billing-portal page="home"></billing-portal>`);
    expect(el.state).to.equal('loading');
    expect(part(el, 'status')).to.not.equal(null);
    await expect(el).to.be.accessible();
    await settled(el);
    expect(el.state).to.equal('open');
    const container = document.getElementById('service_portal')!;
    expect(container).to.equal(el.container);
    expect(container.parentElement).to.equal(el);
    await until(() => iframeOf(el) !== null, 'the portal iframe');
    const iframe = iframeOf(el)!;
    expect(iframe.title).to.not.equal('');
    expect(new URL(iframe.src).origin).to.equal(env.sandboxUrl);
    await ready;
    expect(part(el, 'status')).to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('leaves its light DOM as the host wrote it until a page opens', async () => {
    // What a framework rendered on the server, then hydrates: the element must not add to it
    // before the page opens. The proxy's answer is held back to make "before" last.
    const cleanups: (() => void)[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked = false;
    const realFetch = window.fetch;
    window.fetch = async (input, init) => {
      if (String(input instanceof Request ? input.url : input).includes('/billing/portal')) {
        asked = true;
        await held;
      }
      return realFetch(input, init);
    };
    try {
      // Parsed, then connected: as server-rendered HTML is.
      const wrapper = document.createElement('div');
      wrapper.innerHTML =
        '<billing-portal page="home"><span slot="error">Oops</span> <!-- host --></billing-portal>';
      const el = wrapper.querySelector('billing-portal') as BillingPortal;
      const written = [...el.childNodes];
      const markup = el.innerHTML;
      const added: Node[] = [];
      const removed: Node[] = [];
      const observer = new MutationObserver((records) => {
        for (const record of records) {
          added.push(...record.addedNodes);
          removed.push(...record.removedNodes);
        }
      });
      observer.observe(el, { childList: true });
      cleanups.push(() => wrapper.remove());
      document.body.append(wrapper);
      await until(() => el.state === 'loading', 'the opening to start');
      // The element has asked for the page and waits for its answer: whatever it does before a
      // page opens is done. Several frames go by too: hydration would happen here.
      await until(() => asked, 'the page to be asked of the proxy');
      await el.updateComplete;
      for (let frame = 0; frame < 3; frame += 1)
        await new Promise((resolve) => requestAnimationFrame(resolve));
      expect(sameNodes([...el.childNodes], written), "the host's nodes, no other").to.equal(true);
      expect(el.innerHTML).to.equal(markup);
      // (Booleans: a failed comparison of elements would be serialized whole to the runner.)
      expect(el.container === null, 'no container yet').to.equal(true);
      expect(document.getElementById('service_portal') === null, 'no element by id').to.equal(true);

      release();
      await settled(el);
      expect(el.state).to.equal('open');
      await until(() => iframeOf(el) !== null, 'the portal iframe');
      observer.disconnect();
      // The page opened: the container is the one node added, after the host's own.
      expect(sameNodes(added, [el.container!]), 'only the container added').to.equal(true);
      expect(removed.length, 'nodes of the host removed').to.equal(0);
      expect(sameNodes([...el.childNodes], [...written, el.container!])).to.equal(true);
      expect(document.getElementById('service_portal') === el.container).to.equal(true);
    } finally {
      window.fetch = realFetch;
      release();
      for (const cleanup of cleanups.splice(0)) cleanup();
    }
  });

  it('takes an empty script-global or nonce for none', async () => {
    const el = await fixture<BillingPortal>(
      html`<billing-portal page="home" script-global="" nonce=""></billing-portal>`,
    );
    await settled(el);
    expect(el.state).to.equal('open');
    await until(() => iframeOf(el) !== null, 'the portal iframe');
  });

  it('loads the portal script once for any number of portals', async () => {
    const env = await testEnv();
    const wrapper = await fixture<HTMLElement>(html`
      <div>
        <billing-portal page="home"></billing-portal>
        <billing-portal page="offers" container-id="second_portal"></billing-portal>
      </div>
    `);
    const [first, second] = [...wrapper.querySelectorAll('billing-portal')];
    await settled(first!);
    await settled(second!);
    expect(first!.state).to.equal('open');
    expect(second!.state).to.equal('open');
    expect(document.getElementById('second_portal')!.parentElement).to.equal(second);
    await until(() => iframeOf(second!) !== null, 'the second iframe');
    const scripts = [...document.querySelectorAll<HTMLScriptElement>('script[src]')].filter(
      (script) => script.src === env.portalScriptUrl,
    );
    expect(scripts.length).to.equal(1);
    expect(await proxyRequestCount('GET', '/billing/portal')).to.equal(2);
  });

  it('shows an error with a retry when the portal script does not load', async () => {
    // As on a fresh page: no portal global yet, so the (wrong) script address is really loaded.
    delete (window as { ServicePortal?: unknown }).ServicePortal;
    const errors: Event[] = [];
    const el = await fixture<BillingPortal>(
      html`<billing-portal
        page="home"
        endpoint="/billing-flaky"
        @billing-error=${(event: Event) => errors.push(event)}
      ></billing-portal>`,
    );
    await settled(el);
    expect(el.state).to.equal('error');
    expect(el.error?.code).to.equal('portal-script-failed');
    expect(text(el.shadowRoot!.querySelector('[role="alert"]'))).to.equal(
      'The billing portal could not be loaded.',
    );
    expect(errors.length).to.equal(1);
    // No page opened: no container was added.
    expect(el.container === null, 'no container').to.equal(true);
    await expect(el).to.be.accessible();

    // The script address is repaired; the retry, from the keyboard, loads it and opens.
    await setFlakyPortalScript(false);
    part(el, 'retry')!.focus();
    await sendKeys({ press: 'Enter' });
    await until(() => el.state !== 'error', 'the retry to start');
    await settled(el);
    expect(el.state).to.equal('open');
    await until(() => iframeOf(el) !== null, 'the portal iframe');
    expect((await testStats()).flakyPortalScript).to.equal(2);
  });

  it('gives its CSP nonce to the portal script', async () => {
    // Only this test uses /billing-alt, whose script address is new to the page: a real load.
    delete (window as { ServicePortal?: unknown }).ServicePortal;
    const el = await fixture<BillingPortal>(
      html`<billing-portal
        page="home"
        endpoint="/billing-alt"
        nonce="r4nd0m-n0nce"
      ></billing-portal>`,
    );
    await settled(el);
    expect(el.state).to.equal('open');
    const script = [...document.querySelectorAll<HTMLScriptElement>('script[src]')].find(
      (candidate) => candidate.src === new URL('/_test/portal.js', location.href).href,
    );
    expect(script?.nonce).to.equal('r4nd0m-n0nce');
  });

  it('retries from the keyboard after a failed opening', async () => {
    const el = await fixture<BillingPortal>(
      html`<billing-portal
        page="home"
        endpoint="/billing-flaky"
        script-global="RetryPortal"
      ></billing-portal>`,
    );
    await settled(el);
    expect(el.state).to.equal('error');
    const before = (await testStats()).flakyPortalScript;
    part(el, 'retry')!.focus();
    await sendKeys({ press: 'Enter' });
    await until(
      () => el.state === 'error' && el.error !== null,
      'the retried opening to fail again',
    );
    const after = (await testStats()).flakyPortalScript;
    expect(after).to.equal(before + 1);
  });

  it('renders an in-site link in link mode, to the page, hosted or a trusted origin', async () => {
    const env = await testEnv();
    // The sandbox's stand-in installation page is on its hosted origin, which the proxy
    // announces: the default works with no configuration.
    const el = await fixture<BillingPortal>(
      html`<billing-portal mode="link" page="home"></billing-portal>`,
    );
    await settled(el);
    expect(el.state, el.error?.message).to.equal('open');
    const link = part(el, 'link') as HTMLAnchorElement;
    expect(link.href.startsWith(`${env.sandboxUrl}/insite?pa_query=`)).to.equal(true);
    expect(text(link)).to.equal('Manage billing');
    expect(el.container === null || el.container.childElementCount === 0).to.equal(true);
    await expect(el).to.be.accessible();

    // /billing-elsewhere announces another hosted origin: the sandbox's address is
    // refused, and the console says how to allow it.
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => warnings.push(args.map(String).join(' '));
    try {
      const refused = await fixture<BillingPortal>(
        html`<billing-portal
          mode="link"
          page="offers"
          endpoint="/billing-elsewhere"
        ></billing-portal>`,
      );
      await settled(refused);
      expect(refused.state).to.equal('error');
      expect(refused.error?.code).to.equal('unsafe-url');
      expect(text(refused.shadowRoot!.querySelector('[role="alert"]'))).to.equal(
        'This billing address is not allowed here.',
      );
      expect(refused.shadowRoot!.querySelector('a')).to.equal(null);
      expect(warnings.length, warnings.join('\n')).to.equal(1);
      expect(warnings[0]).to.contain('<billing-portal page="offers">');
      expect(warnings[0]).to.contain(`configureBilling({ trustedOrigins: ['${env.sandboxUrl}'] })`);
    } finally {
      console.warn = warn;
    }

    configureBilling({ trustedOrigins: [env.sandboxUrl] });
    const trusted = await fixture<BillingPortal>(
      html`<billing-portal
        mode="link"
        page="offers"
        endpoint="/billing-elsewhere"
      ></billing-portal>`,
    );
    await settled(trusted);
    expect(trusted.state).to.equal('open');
  });

  it('opens the remedies of the other elements in place', async () => {
    await freshStart('starter-plan');
    const wrapper = await fixture<HTMLElement>(html`
      <div>
        <usage-meter feature="seats" label="Seats"></usage-meter>
        <billing-portal page="home"></billing-portal>
      </div>
    `);
    const meter = wrapper.querySelector('usage-meter') as UsageMeter;
    const portal = wrapper.querySelector('billing-portal') as BillingPortal;
    await settled(portal);
    await until(() => part(meter, 'remedy') !== null, 'the not-in-plan state');
    part(meter, 'remedy')!.focus();
    await sendKeys({ press: 'Enter' });
    await until(() => portal.page === 'change-plan', 'the portal to switch page');
    await settled(portal);
    expect(portal.state).to.equal('open');
    // No modal portal of its own (a <billing-portal> at the end of the body).
    expect(document.querySelector('body > billing-portal')).to.equal(null);
    expect(await proxyRequestCount('GET', '/billing/portal')).to.equal(2);
  });

  it('opens a requested page and reports completion by refreshing the usages', async () => {
    // Without live updates: the read counted is the completion's, not the service's signal's.
    configureBilling({ live: false });
    const el = await fixture<BillingPortal>(html`<billing-portal></billing-portal>`);
    await settled(el);
    await openPortalPage({ page: 'change-plan', offer: 'business' });
    expect(el.page).to.equal('change-plan');
    expect(el.offer).to.equal('business');
    expect(el.state).to.equal('open');
    const before = await proxyRequestCount('GET', '/billing/usages');
    const completed = new Promise<CustomEvent>((resolve) =>
      el.addEventListener('billing-portal-complete', (event) => resolve(event as CustomEvent), {
        once: true,
      }),
    );
    // What the portal script dispatches when the hosted page reports a completed workflow.
    el.container!.dispatchEvent(
      new CustomEvent('service-portal:complete', {
        bubbles: true,
        composed: true,
        detail: { workflow: 'upgrade' },
      }),
    );
    expect((await completed).detail).to.deep.equal({ page: 'change-plan', workflow: 'upgrade' });
    expect(await requestsAfter('GET', '/billing/usages', before)).to.equal(before + 1);
  });

  it('refreshes the usages when a real hosted workflow completes, driven from the keyboard', async () => {
    await freshStart('suspended');
    // The card was replaced: the restart page now offers "Restart now" as its only control.
    await sandbox('customers/suspended/payment-method', { state: 'valid' });
    // Without live updates: the read counted is the completion's, not the service's signal's.
    configureBilling({ live: false });
    const shown = nextEvent(document, 'billing-portal-ready');
    const el = await fixture<BillingPortal>(html`<billing-portal page="restart"></billing-portal>`);
    await shown;
    expect(el.state).to.equal('open');
    const iframe = iframeOf(el)!;
    const before = await proxyRequestCount('GET', '/billing/usages');
    const completed = new Promise<CustomEvent>((resolve) =>
      el.addEventListener('billing-portal-complete', (event) => resolve(event as CustomEvent), {
        once: true,
      }),
    );
    iframe.focus();
    await sendKeys({ press: 'Tab' });
    // Enter stays down until the frame has shown its next page (billing-history.test.ts says why).
    await sendKeys(canHoldKeys ? { down: 'Enter' } : { press: 'Enter' });
    expect((await completed).detail).to.deep.equal({ page: 'restart', workflow: 'restart' });
    if (canHoldKeys) await sendKeys({ up: 'Enter' });
    expect(await requestsAfter('GET', '/billing/usages', before)).to.equal(before + 1);
    const customer = await sandbox<{
      subscriptions: { state?: string; StateSubscription?: string }[];
    }>('customers/suspended');
    expect(JSON.stringify(customer.subscriptions)).to.contain('Running');
  });

  it('shows the refusal of a page that does not apply to the customer', async () => {
    await freshStart('healthy');
    const el = await fixture<BillingPortal>(html`<billing-portal page="restart"></billing-portal>`);
    await settled(el);
    expect(el.state).to.equal('error');
    expect(part(el, 'retry')).to.not.equal(null);
    expect(part(el, 'retry')!.getAttribute('part')).to.equal('button retry');
    await expect(el).to.be.accessible();
  });

  it('speaks French under a French lang', async () => {
    // French texts load on demand (English meanwhile): loaded first, the element speaks French
    // from its first render.
    await loadLanguage('fr');
    const wrapper = await fixture<HTMLElement>(html`
      <div lang="fr">
        <billing-portal
          page="home"
          endpoint="/billing-flaky"
          script-global="FrPortal"
        ></billing-portal>
      </div>
    `);
    const el = wrapper.querySelector('billing-portal') as BillingPortal;
    await settled(el);
    expect(text(el.shadowRoot!.querySelector('[role="alert"]'))).to.equal(
      'Le portail de facturation n’a pas pu être chargé.',
    );
    expect(text(part(el, 'retry'))).to.equal('Réessayer');
  });

  it('can be defined twice under the same tag without throwing', () => {
    expect(() => BillingPortal.define()).to.not.throw();
    expect(customElements.get('billing-portal')).to.equal(BillingPortal);
  });
});
