import { expect, fixture, html } from '@open-wc/testing';
import '../../src/elements/usage-meter/define.js';
import type { UsageMeter } from '../../src/elements/usage-meter/usage-meter.js';
import { configureBilling } from '../../src/client/config.js';
import { loadLanguage } from '../../src/client/i18n.js';
import type { BillingRemedyEvent } from '../../src/client/events.js';

import {
  addFault,
  buyThroughProxy,
  freshStart,
  proxyRequestCount,
  signIn,
  signOut,
  until,
} from '../browser/billing.js';

// Every state around the happy path: one calm message per region and cause.

const settled = (el: UsageMeter) => until(() => el.state !== 'loading', 'the meter to settle');

const part = (el: UsageMeter, name: string) =>
  el.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);

const text = (node: Element | null | undefined) =>
  (node?.textContent ?? '').replace(/\s+/g, ' ').trim();

const meters = (root: Element) => [...root.querySelectorAll<UsageMeter>('usage-meter')];

/** The dashboard's shape: three meters in one region, two on/off ones in another. */
const dashboard = () =>
  html`<div>
    <section aria-label="Plan usage" data-billing-region>
      <usage-meter feature="seats" label="Seats"></usage-meter>
      <usage-meter feature="projects" label="Projects"></usage-meter>
      <usage-meter feature="api-calls" label="API calls"></usage-meter>
    </section>
    <section aria-label="Included" data-billing-region>
      <usage-meter feature="sso"></usage-meter>
      <usage-meter feature="priority-support"></usage-meter>
    </section>
  </div>`;

async function settledAll(root: Element): Promise<UsageMeter[]> {
  const all = meters(root);
  for (const el of all) await settled(el);
  for (const el of all) await el.updateComplete;
  return all;
}

describe('<usage-meter> states', () => {
  let errors: string[] = [];
  const consoleError = console.error;
  beforeEach(() => {
    errors = [];
    console.error = (...args: unknown[]) => {
      errors.push(args.map(String).join(' '));
    };
  });
  afterEach(() => {
    console.error = consoleError;
  });

  it('without a subscription, says "Choose a plan to get started" once per region, with one action', async () => {
    await freshStart('no-subscription');
    const root = await fixture(dashboard());
    const [seats, projects, calls, sso, support] = await settledAll(root);
    expect(seats!.state).to.equal('no-subscription');
    expect(sso!.state).to.equal('no-subscription');
    for (const covered of [projects, calls, support]) {
      expect(covered!.state).to.equal('covered');
      expect(part(covered!, 'message')).to.equal(null);
      expect(covered!.shadowRoot!.querySelector('button')).to.equal(null);
      // The region's message says it once: the others show a quiet dash, the state kept for
      // screen readers, which reach each meter on its own.
      expect(part(covered!, 'state')).to.equal(null);
      expect(text(part(covered!, 'covered')?.querySelector('[aria-hidden="true"]'))).to.equal('—');
      expect(text(part(covered!, 'covered')?.querySelector('.visually-hidden'))).to.equal(
        'No plan yet',
      );
    }
    expect(text(part(seats!, 'message'))).to.equal('Choose a plan to get started. See plans');
    const all =
      root.innerHTML +
      meters(root)
        .map((el) => el.shadowRoot!.innerHTML)
        .join('');
    expect(all).to.not.contain('not part of your plan');
    expect(all).to.not.contain('Change plan');
    const buttons = meters(root).flatMap((el) => [...el.shadowRoot!.querySelectorAll('button')]);
    expect(buttons.length).to.equal(2);
    const remedies: BillingRemedyEvent[] = [];
    seats!.addEventListener('billing-remedy', (event) => {
      event.preventDefault();
      remedies.push(event as BillingRemedyEvent);
    });
    part(seats!, 'remedy')!.click();
    expect(remedies[0]!.detail.page).to.equal('offers');
    for (const el of meters(root)) await expect(el).to.be.accessible();
  });

  it('lets the next meter of the region speak when the first one leaves', async () => {
    await freshStart('no-subscription');
    const root = await fixture(dashboard());
    const [seats, projects] = await settledAll(root);
    seats!.remove();
    await until(() => projects!.state === 'no-subscription', 'the next meter to speak');
  });

  it('shows a pending plan’s allowances, said once per region to start when it is complete', async () => {
    await freshStart('pending');
    const root = await fixture(dashboard());
    const [seats, projects, calls, sso, support] = await settledAll(root);
    for (const el of [seats, projects, calls, sso]) expect(el!.state).to.equal('pending');
    expect(text(part(seats!, 'figures'))).to.equal('5 included');
    expect(text(part(projects!, 'figures'))).to.equal('10 included');
    expect(text(part(calls!, 'figures'))).to.equal('10,000 included');
    // The first meter of each region says when the terms start, and offers to complete the
    // subscription; the others show their terms alone.
    expect(text(part(seats!, 'detail'))).to.equal('Starts once your subscription is complete');
    expect(text(part(seats!, 'remedy'))).to.equal('Complete your subscription');
    expect(text(part(sso!, 'detail'))).to.equal('Starts once your subscription is complete');
    for (const quiet of [projects, calls]) {
      expect(text(part(quiet!, 'detail'))).to.equal('');
      expect(quiet!.shadowRoot!.querySelector('button')).to.equal(null);
    }
    expect(support!.shadowRoot!.textContent).to.not.contain('Starts once');
    const remedies: BillingRemedyEvent[] = [];
    seats!.addEventListener('billing-remedy', (event) => {
      event.preventDefault();
      remedies.push(event as BillingRemedyEvent);
    });
    part(seats!, 'remedy')!.click();
    expect(remedies[0]!.detail.page).to.equal('subscribe');
    expect(text(part(sso!, 'state'))).to.equal('Included');
    // Not on before the checkout: not drawn as a feature in use.
    expect(part(sso!, 'state')!.hasAttribute('data-on')).to.equal(false);
    const all = meters(root)
      .map((el) => el.shadowRoot!.innerHTML)
      .join('');
    expect(all).to.not.contain('not included in your plan');
    expect(all).to.not.contain('not part of your plan');
    for (const el of meters(root)) await expect(el).to.be.accessible();
  });

  it('lists a pending plan’s allowances in list mode, in French too', async () => {
    await freshStart('pending');
    const el = await fixture<UsageMeter>(html`<usage-meter lang="fr"></usage-meter>`);
    await settled(el);
    // English until the French texts have loaded, which can come after the usages.
    await loadLanguage('fr');
    await el.updateComplete;
    expect(el.state).to.equal('pending');
    const figures = [...el.shadowRoot!.querySelectorAll('[part="figures"]')].map(text);
    expect(figures).to.deep.equal(['5 inclus', '10 inclus', '10 000 inclus']);
    expect(text(part(el, 'detail'))).to.equal('Commence une fois l’abonnement finalisé');
    await expect(el).to.be.accessible();
  });

  it('when signed out, asks to sign in at the configured address, without a retry', async () => {
    await freshStart('healthy');
    signOut();
    configureBilling({ signInUrl: '/login?next=/app' });
    const root = await fixture(dashboard());
    const [seats, projects] = await settledAll(root);
    expect(seats!.state).to.equal('signed-out');
    expect(projects!.state).to.equal('covered');
    expect(text(part(seats!, 'message'))).to.equal('Sign in to see your plan. Sign in');
    const link = part(seats!, 'sign-in') as HTMLAnchorElement;
    expect(link.href).to.equal(new URL('/login?next=/app', location.href).href);
    expect(part(seats!, 'retry')).to.equal(null);
    await expect(seats!).to.be.accessible();
  });

  it('stops showing the usages when the session ends, and asks to sign in', async () => {
    await freshStart('healthy');
    const el = await fixture<UsageMeter>(html`<usage-meter feature="seats"></usage-meter>`);
    await settled(el);
    expect(el.state).to.equal('ready');
    signOut();
    await el.refresh();
    await el.updateComplete;
    expect(el.state).to.equal('signed-out');
    expect(el.shadowRoot!.querySelector('[role="meter"]')).to.equal(null);
  });

  it('shows none of another account signed in since, and says to reload', async () => {
    await freshStart('healthy');
    const el = await fixture<UsageMeter>(html`<usage-meter feature="seats"></usage-meter>`);
    await settled(el);
    expect(text(part(el, 'figures'))).to.equal('3 of 5');
    // A sign-in in another tab of the site: the cookie names another customer now.
    signIn('unlimited');
    await el.refresh().catch(() => undefined);
    await el.updateComplete;
    expect(el.state).to.equal('error');
    expect(el.shadowRoot!.querySelector('[role="meter"]')).to.equal(null);
    expect(text(el.shadowRoot!.querySelector('[role="alert"]'))).to.equal(
      'Another account has signed in since this page opened. Reload the page to see its billing.',
    );
    // Reading again cannot help (the page's customer is not the one signed in): no Try again.
    expect(text(part(el, 'remedy'))).to.equal('Reload the page');
    expect(part(el, 'retry')).to.equal(null);
    expect(el.shadowRoot!.textContent).to.not.contain('42');
    await expect(el).to.be.accessible();
  });

  it('takes the sign-in address from its attribute, and offers no unsafe one', async () => {
    await freshStart('healthy');
    signOut();
    const el = await fixture<UsageMeter>(
      html`<usage-meter
        feature="seats"
        sign-in-url="https://id.example.com/sign-in"
      ></usage-meter>`,
    );
    await settled(el);
    expect((part(el, 'sign-in') as HTMLAnchorElement).href).to.equal(
      'https://id.example.com/sign-in',
    );
    el.signInUrl = '';
    await el.updateComplete;
    expect(part(el, 'sign-in'), 'no address, no link').to.equal(null);
    el.signInUrl = 'javascript:alert(1)';
    await el.updateComplete;
    expect(part(el, 'sign-in')).to.equal(null);
    expect(text(part(el, 'message'))).to.equal('Sign in to see your plan.');
  });

  it('with the proxy down, shows one error per region and one retry that retries all', async () => {
    await freshStart('healthy');
    // The proxy retries idempotent reads twice: three failures make it give up.
    await addFault({ route: 'GET /v1/Usages', mode: 'status-500', times: 3 });
    const root = await fixture(dashboard());
    const all = await settledAll(root);
    const alerts = all.flatMap((el) => [...el.shadowRoot!.querySelectorAll('[role="alert"]')]);
    expect(alerts.length).to.equal(2);
    const buttons = all.flatMap((el) => [...el.shadowRoot!.querySelectorAll('button')]);
    expect(buttons.length).to.equal(2);
    expect(new Set(buttons.map((button) => button.className))).to.deep.equal(new Set(['primary']));
    expect(all.map((el) => el.state)).to.deep.equal([
      'error',
      'covered',
      'covered',
      'error',
      'covered',
    ]);
    for (const el of all) await expect(el).to.be.accessible();
    const before = await proxyRequestCount('GET', '/billing/usages');
    part(all[0]!, 'retry')!.click();
    await until(() => all.every((el) => el.state === 'ready'), 'every meter after one retry');
    expect((await proxyRequestCount('GET', '/billing/usages')) - before).to.equal(1);
    expect(text(part(all[1]!, 'figures'))).to.equal('4 of 10');
  });

  it('reads seats bought beyond the plan apart: included, then extra, in a neutral tone', async () => {
    await freshStart('healthy');
    const el = await fixture<UsageMeter>(html`<usage-meter feature="seats"></usage-meter>`);
    await settled(el);
    // 3 of 5: two more are free and fill the plan, which is no alarm.
    const filled = await buyThroughProxy('seats', 2);
    expect(filled.pricing.AmountTotal).to.equal(0);
    await el.updateComplete;
    expect(text(part(el, 'figures'))).to.equal('5 of 5');
    expect(el.level).to.equal('normal');
    expect(part(el, 'level')).to.equal(null);
    expect(el.shadowRoot!.innerHTML).to.not.contain('Limit reached');
    expect(text(el.shadowRoot!.querySelector('[role="status"]'))).to.equal(
      'Seats: all 5 included in use.',
    );
    // One more is bought: 5 included + 1 extra, apart.
    await buyThroughProxy('seats', 1);
    await el.updateComplete;
    expect(text(part(el, 'figures'))).to.equal('6 · 5 included + 1 extra');
    expect(el.level).to.equal('normal');
    const fills = el.shadowRoot!.querySelectorAll<HTMLElement>('[part~="fill"]');
    expect(fills.length).to.equal(2);
    expect(parseFloat(fills[0]!.style.inlineSize)).to.be.closeTo(83.33, 0.01);
    expect(parseFloat(fills[1]!.style.inlineSize)).to.be.closeTo(16.67, 0.01);
    const colour = (node: HTMLElement) => getComputedStyle(node).backgroundColor;
    expect(colour(fills[1]!)).to.not.equal(colour(fills[0]!));
    expect(el.shadowRoot!.querySelector('[role="meter"]')!.getAttribute('aria-valuetext')).to.equal(
      '6 Seats: 5 included, 1 extra',
    );
    await expect(el).to.be.accessible();
  });

  it('keeps the critical level for a consumption reaching its limit', async () => {
    await freshStart('healthy');
    const el = await fixture<UsageMeter>(
      html`<usage-meter feature="api-calls" critical-threshold="0.1"></usage-meter>`,
    );
    await settled(el);
    expect(el.level).to.equal('critical');
    expect(text(part(el, 'level'))).to.equal('Limit reached');
  });

  it('tells the integrator of a mistyped feature once, and the customer a neutral text', async () => {
    await freshStart('healthy');
    const root = await fixture(
      html`<div>
        <usage-meter feature="seat"></usage-meter>
        <usage-meter feature="seat"></usage-meter>
      </div>`,
    );
    const [first, second] = await settledAll(root);
    for (const el of [first, second]) {
      expect(el!.state).to.equal('unavailable');
      expect(text(part(el!, 'message'))).to.equal('Billing is unavailable on this page.');
      expect(el!.shadowRoot!.querySelector('button')).to.equal(null);
    }
    const lines = errors.filter((line) => line.includes('"seat"'));
    expect(lines).to.deep.equal([
      '[billing-elements] <usage-meter feature="seat">: "seat" is not a feature of this customer\'s service; known: seats, projects, api-calls, sso, priority-support.',
    ]);
    await expect(first!).to.be.accessible();
  });

  it('still offers a change of plan for a real feature the plan lacks, without "is"', async () => {
    await freshStart('starter-plan');
    const el = await fixture<UsageMeter>(
      html`<usage-meter feature="seats" label="Seats"></usage-meter>`,
    );
    await settled(el);
    expect(el.state).to.equal('not-in-plan');
    expect(text(part(el, 'message'))).to.equal(
      'Seats: not included in your plan; included in Pro. Switch to Pro',
    );
    expect(errors.filter((line) => line.includes('seats'))).to.deep.equal([]);
    await expect(el).to.be.accessible();
  });
});
