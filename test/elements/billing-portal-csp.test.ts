// <billing-portal> on a page with a strict Content-Security-Policy (and Trusted Types where the
// engine has them): the documented policy lets the portal open; a policy that lacks a source
// gives a `csp-blocked` (or `trusted-types-blocked`) error and a console line naming the fix,
// not a network failure. Each case is a fresh page (a frame) served with the header.
import { expect } from '@open-wc/testing';
import type { BillingPortal } from '../../src/elements/billing-portal/billing-portal.js';
import type * as Billing from '../../src/index.js';
import { freshStart, testEnv, until } from '../browser/billing.js';

interface CspPage {
  window: Window & { billing: typeof Billing; trustedTypes?: unknown };
  warnings: string[];
  portal(page?: string): Promise<BillingPortal>;
  remove(): void;
}

/** A fresh page of the app under `csp`, its console warnings recorded. */
async function cspPage(csp: string): Promise<CspPage> {
  const frame = document.createElement('iframe');
  frame.title = 'A page under a strict CSP';
  frame.style.cssText = 'width:640px;height:720px;border:0;display:block';
  frame.src = `/_test/csp-page.html?csp=${encodeURIComponent(csp)}`;
  document.body.append(frame);
  const win = () => frame.contentWindow as CspPage['window'] | null;
  await until(() => Boolean(win()?.billing), 'the page under CSP to start', 10_000);
  const warnings: string[] = [];
  const console = (win() as unknown as { console: Console }).console;
  const warn = console.warn.bind(console);
  console.warn = (...args: unknown[]) => {
    warnings.push(args.map(String).join(' '));
    warn(...args);
  };
  return {
    window: win()!,
    warnings,
    async portal(page = 'home') {
      const doc = frame.contentDocument!;
      const el = doc.createElement('billing-portal') as BillingPortal;
      el.setAttribute('page', page);
      doc.querySelector('main')!.append(el);
      await until(
        () => el.state === 'open' || el.state === 'error',
        `<billing-portal> to settle (state ${el.state})`,
        8000,
      );
      return el;
    },
    remove: () => frame.remove(),
  };
}

/** The policy docs/elements.md documents for the portal, with `omit` left out. */
function documentedPolicy(sandbox: string, omit: string[] = []): string {
  const directives: Record<string, string> = {
    'default-src': "'self'",
    'script-src': `'self' ${sandbox}`,
    'connect-src': `'self' ${sandbox}`,
    'frame-src': sandbox,
    'require-trusted-types-for': "'script'",
    'trusted-types': 'billing-elements lit-html',
  };
  return Object.entries(directives)
    .filter(([name]) => !omit.includes(name))
    .map(([name, value]) => `${name} ${value}`)
    .join('; ');
}

describe('<billing-portal> under a strict Content-Security-Policy', () => {
  let page: CspPage | null = null;
  beforeEach(() => freshStart('healthy'));
  afterEach(() => {
    page?.remove();
    page = null;
  });

  it('opens under the documented policy, Trusted Types required', async () => {
    const { sandboxUrl } = await testEnv();
    page = await cspPage(documentedPolicy(sandboxUrl));
    const el = await page.portal();
    expect(el.state, el.error?.message).to.equal('open');
    await until(() => el.container?.querySelector('iframe') != null, 'the hosted page');
    expect(new URL(el.container!.querySelector('iframe')!.src).origin).to.equal(sandboxUrl);
    expect(page.warnings).to.deep.equal([]);
  });

  for (const [directive, why] of [
    ['script-src', 'the portal script'],
    ['connect-src', "the portal script's call to the billing service"],
    ['frame-src', "the portal's hosted page"],
  ] as const) {
    it(`names the fix when ${directive} lacks the service's origin`, async () => {
      const { sandboxUrl } = await testEnv();
      page = await cspPage(documentedPolicy(sandboxUrl, [directive]) + `; ${directive} 'self'`);
      const el = await page.portal();
      // A blocked frame is known once the script has opened the page: open, then the error.
      await until(() => el.state === 'error', `the error state (state ${el.state})`);
      expect(el.error?.code).to.equal('csp-blocked');
      // No retry: only the page's policy can fix it.
      expect(el.shadowRoot!.querySelector('[part~="retry"]')).to.equal(null);
      const line = page.warnings.find((warning) => warning.includes('Content-Security-Policy'));
      expect(line, page.warnings.join('\n')).to.be.a('string');
      expect(line).to.contain(why);
      expect(line).to.contain(`Add ${sandboxUrl} to ${directive}`);
    });
  }

  it('names the Trusted Types policy to allow when the page does not', async function () {
    const { sandboxUrl } = await testEnv();
    page = await cspPage(
      documentedPolicy(sandboxUrl, ['trusted-types']) + '; trusted-types lit-html',
    );
    if (!page.window.trustedTypes) this.skip(); // an engine without Trusted Types
    const el = await page.portal();
    expect(el.state).to.equal('error');
    expect(el.error?.code).to.equal('trusted-types-blocked');
    const line = page.warnings.find((warning) => warning.includes('Trusted Types'));
    expect(line, page.warnings.join('\n')).to.be.a('string');
    expect(line).to.contain('trusted-types billing-elements');
  });
});
