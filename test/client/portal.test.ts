import { expect } from '@open-wc/testing';
import { emulateMedia, sendKeys } from '@web/test-runner-commands';
import { BillingError } from '../../src/client/errors.js';
import { loadPortalScript, remedyFor } from '../../src/client/portal.js';
import { openPortalPage } from '../../src/elements/billing-portal/open.js';
import { followableUrl } from '../../src/client/safe-url.js';
import { configureBilling } from '../../src/client/config.js';
import {
  freshStart,
  proxyRequestCount,
  requestsAfter,
  setFlakyPortalScript,
  testEnv,
  testStats,
  until,
  focusedOpener,
} from '../browser/billing.js';
import { canEmulateMedia } from '../browser/engine.js';

/** The dialog of each modal portal of openPortalPage (a <billing-portal> at the end of the body). */
const modalDialogs = () =>
  [...document.querySelectorAll('body > billing-portal')].map((portal) =>
    portal.shadowRoot!.querySelector('dialog')!,
  );

const scriptsFor = (url: string) =>
  [...document.querySelectorAll<HTMLScriptElement>('script[src]')].filter(
    (script) => script.src === url,
  );

describe('portal runtime', () => {
  beforeEach(() => freshStart('healthy'));
  afterEach(async () => {
    for (const dialog of modalDialogs()) dialog.close();
    // A modal portal leaves the page on its dialog's close event, a task later: the next test
    // must not find it still connected and take it for the page's portal.
    await until(() => modalDialogs().length === 0, 'the modal portals to leave');
  });

  it('loads a portal script once per page, with its CSP nonce', async () => {
    const env = await testEnv();
    const first = loadPortalScript(env.portalScriptUrl, { nonce: 'n0nce-value' });
    const second = loadPortalScript(env.portalScriptUrl);
    const api = await first;
    expect(await second).to.equal(api);
    expect(typeof api.open).to.equal('function');
    const scripts = scriptsFor(env.portalScriptUrl);
    expect(scripts.length).to.be.at.most(1);
    if (scripts[0]) expect(scripts[0].nonce).to.equal('n0nce-value');
    expect(await loadPortalScript(env.portalScriptUrl)).to.equal(api);
    expect(scriptsFor(env.portalScriptUrl).length).to.be.at.most(1);
  });

  it('fails on a wrong script address, and tries again when asked', async () => {
    const env = await testEnv();
    const options = { globalName: 'ServicePortal', timeoutMs: 5000 };
    // Another URL than the loaded one, under a global not yet defined: a real load each time.
    const failing = await loadPortalScript(env.flakyPortalScriptUrl, {
      ...options,
      globalName: 'FlakyPortal',
    }).catch((error: unknown) => error);
    expect(failing).to.be.instanceOf(BillingError);
    expect((failing as BillingError).code).to.equal('portal-script-failed');
    expect(scriptsFor(env.flakyPortalScriptUrl).length).to.equal(0);
    await setFlakyPortalScript(false);
    // The repaired address serves the sandbox's script, which defines ServicePortal, not FlakyPortal.
    const invalid = await loadPortalScript(env.flakyPortalScriptUrl, {
      ...options,
      globalName: 'FlakyPortal',
    }).catch((error: unknown) => error);
    expect((invalid as BillingError).code).to.equal('portal-script-invalid');
    expect((await testStats()).flakyPortalScript).to.equal(2);
  });

  it('gives up on a script that does not load in time', async () => {
    const started = Date.now();
    const error = await loadPortalScript('/_test/slow-portal.js?ms=3000', {
      globalName: 'SlowPortal',
      timeoutMs: 300,
    }).catch((reason: unknown) => reason);
    expect((error as BillingError).code).to.equal('timeout');
    expect(Date.now() - started).to.be.lessThan(2000);
    const api = await loadPortalScript('/_test/slow-portal.js?ms=50', {
      globalName: 'SlowPortal',
      timeoutMs: 3000,
    });
    expect(typeof api.open).to.equal('function');
  });

  it('opens a workflow in a modal portal of its own when the page has no <billing-portal>', async () => {
    const opener = focusedOpener('Open billing');
    try {
      await openPortalPage({ page: 'home' }, { from: opener });
      const [dialog] = modalDialogs();
      expect(dialog!.open).to.equal(true);
      expect(dialog!.matches(':modal')).to.equal(true);
      // The container stays in the light tree, where the script finds it, shown in the dialog.
      const container = document.getElementById('service_portal')!;
      const portal = container.parentElement!;
      expect(portal.tagName).to.equal('BILLING-PORTAL');
      expect(container.assignedSlot?.closest('dialog')).to.equal(dialog);
      await until(() => container.querySelector('iframe') !== null, 'the portal iframe');
      expect(container.querySelector('iframe')!.title).to.not.equal('');
      const title = portal.shadowRoot!.getElementById(dialog!.getAttribute('aria-labelledby')!)!;
      // Titled by its task: the portal's home here.
      expect(title.textContent!.trim()).to.equal('Manage billing');
      // The Close button has the focus, as the first focusable element of the dialog.
      expect(portal.shadowRoot!.activeElement?.textContent?.trim()).to.equal('Close');
      await expect(portal).to.be.accessible();

      await sendKeys({ press: 'Escape' });
      await until(() => !portal.isConnected, 'the dialog to close');
      expect(document.activeElement).to.equal(opener);
    } finally {
      opener.remove();
    }
  });

  // Chromium only: the other engines' automation cannot switch the preference (engine.ts).
  (canEmulateMedia ? it : it.skip)(
    'shows the modal portal dark under a dark preference, on a page that follows it',
    async () => {
      document.documentElement.style.colorScheme = 'light dark';
      await emulateMedia({ colorScheme: 'dark' });
      try {
        await openPortalPage({ page: 'home' });
        const [dialog] = modalDialogs();
        // Canvas under `color-scheme: light dark`: the dark system background, with light text.
        const background = getComputedStyle(dialog!).backgroundColor;
        const channels = background.match(/\d+/g)!.slice(0, 3).map(Number);
        expect(Math.max(...channels), background).to.be.below(64);
        const text = getComputedStyle(dialog!).color.match(/\d+/g)!.slice(0, 3).map(Number);
        expect(Math.min(...text)).to.be.above(192);
      } finally {
        await emulateMedia({ colorScheme: 'light' });
        document.documentElement.style.colorScheme = '';
      }
    },
  );

  it("names the modal portal's dialog, title and Close button as parts", async () => {
    await openPortalPage({ page: 'home' });
    const portal = document.querySelector('body > billing-portal')!;
    const parts = [...portal.shadowRoot!.querySelectorAll('[part]')].map((node) => [
      node.tagName.toLowerCase(),
      node.getAttribute('part'),
    ]);
    expect(parts.slice(0, 3)).to.deep.equal([
      ['dialog', 'dialog'],
      ['h2', 'dialog-title'],
      ['button', 'button close'],
    ]);
  });

  it('refreshes the usages when a workflow completes in the modal portal', async () => {
    await openPortalPage({ page: 'home' });
    const container = document.getElementById('service_portal')!;
    const portal = container.parentElement!;
    const before = await proxyRequestCount('GET', '/billing/usages');
    const completed = new Promise<CustomEvent>((resolve) =>
      portal.addEventListener('billing-portal-complete', (event) => resolve(event as CustomEvent), {
        once: true,
      }),
    );
    // What the portal script does when the hosted page reports a completed workflow.
    container.dispatchEvent(
      new CustomEvent('service-portal:complete', {
        bubbles: true,
        composed: true,
        detail: { workflow: 'upgrade' },
      }),
    );
    expect((await completed).detail).to.deep.equal({ page: 'home', workflow: 'upgrade' });
    expect(await requestsAfter('GET', '/billing/usages', before)).to.equal(before + 1);
  });

  it('maps refusals to the portal page that remedies them', async () => {
    expect(remedyFor('Error.Api.Usage.NoneMatching')).to.equal('change-plan');
    expect(remedyFor('Error.Customer.PaymentSettings.Missing')).to.equal('register');
    expect(remedyFor('Error.Customer.Billing.CappingReached')).to.equal('pay-invoice');
    expect(remedyFor('subscription-suspended')).to.equal('restart');
    // Suspended because the payment method no longer works: a new one before the restart.
    expect(remedyFor('payment-method-invalid')).to.equal('register');
    expect(remedyFor('timeout')).to.equal(undefined);
    await freshStart('capping-reached');
    // A remedy asks for the page alone: the proxy picks the oldest due invoice itself.
    const request = { page: 'pay-invoice' } as const;
    const container = document.createElement('div');
    container.id = 'remedy_portal';
    document.body.append(container);
    try {
      const { embedPortal } = await import('../../src/client/portal.js');
      await embedPortal({ container, request });
      await until(() => container.querySelector('iframe') !== null, 'the invoice payment page');
    } finally {
      container.remove();
    }
  });

  it('follows only http(s) addresses on the page, trusted or announced origins', async () => {
    const env = await testEnv();
    expect(followableUrl('/billing/x')?.origin).to.equal(location.origin);
    expect(followableUrl('javascript:alert(1)')).to.equal(null);
    expect(followableUrl('data:text/html,hi')).to.equal(null);
    expect(followableUrl(`${env.sandboxUrl}/insite`)).to.equal(null);
    expect(followableUrl(`${env.sandboxUrl}/insite`, [env.sandboxUrl])?.href).to.equal(
      `${env.sandboxUrl}/insite`,
    );
    configureBilling({ trustedOrigins: [env.sandboxUrl] });
    expect(followableUrl(`${env.sandboxUrl}/insite`)).to.not.equal(null);
    expect(followableUrl('https://evil.example/portal.js')).to.equal(null);
    expect(followableUrl('//evil.example/portal.js')).to.equal(null);
    // Only http(s) origins are trusted, and an unreadable one does not get in the way.
    const odd = ['javascript:alert(1)', 'data:text/html,hi', 'not a url', 'ftp://evil.example'];
    expect(followableUrl('javascript:alert(1)', odd)).to.equal(null);
    expect(followableUrl('ftp://evil.example/x', odd)).to.equal(null);
    expect(followableUrl(`${location.origin.toUpperCase()}/billing/x`, odd)?.href).to.equal(
      `${location.origin}/billing/x`,
    );
  });
});
