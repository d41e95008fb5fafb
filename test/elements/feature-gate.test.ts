import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import type { BillingEntitlementChangeEvent } from '../../src/client/events.js';
import { getUsageStore } from '../../src/client/usage-store.js';
import type { FeatureGate } from '../../src/elements/feature-gate/feature-gate.js';
import '../../src/elements/feature-gate/define.js';
import '../../src/elements/plan-picker/define.js';
import '../../src/elements/usage-meter/define.js';
import {
  addFault,
  closePortalDialogs,
  freshStart,
  openedPortalPath,
  part,
  partText,
} from './buy-feature-helpers.js';

// <feature-gate> against the real proxy over the real sandbox: content only for an entitled
// customer, nothing while the usages load, a fallback otherwise, and an event when it changes.

/** Whether the gated content is rendered (slotted into the shadow root's default slot). */
function contentShown(gate: FeatureGate): boolean {
  const slot = gate.shadowRoot!.querySelector<HTMLSlotElement>('slot:not([name])');
  return slot !== null && slot.assignedElements().some((node) => node.matches('.gated'));
}

async function settled(gate: FeatureGate): Promise<void> {
  await waitUntil(() => gate.state !== 'loading', 'entitlement known', { timeout: 8000 });
  await gate.updateComplete;
}

/** A gate on single sign-on beside its meter, for `customer`, once the gate has settled. */
async function gateBesideMeter(customer: string): Promise<{ gate: FeatureGate; meter: Element }> {
  await freshStart(customer);
  const wrapper = await fixture<HTMLElement>(
    html`<div>
      <feature-gate feature="sso" label="Single sign-on"><p class="gated">SSO</p></feature-gate>
      <usage-meter feature="sso"></usage-meter>
    </div>`,
  );
  const gate = wrapper.querySelector<FeatureGate>('feature-gate')!;
  await settled(gate);
  return { gate, meter: wrapper.querySelector('usage-meter')! };
}

describe('<feature-gate>', () => {
  afterEach(closePortalDialogs);

  it('shows its content to a customer whose plan includes the feature', async () => {
    await freshStart('healthy');
    const event = new Promise<BillingEntitlementChangeEvent>((resolve) =>
      document.addEventListener('billing-entitlement-change', (e) => resolve(e), { once: true }),
    );
    const gate = await fixture<FeatureGate>(
      html`<feature-gate feature="sso"><p class="gated">SSO settings</p></feature-gate>`,
    );
    await settled(gate);
    expect(gate.state).to.equal('granted');
    expect(contentShown(gate)).to.equal(true);
    expect((await event).detail).to.deep.equal({
      feature: 'sso',
      entitled: true,
      previous: undefined,
    });
    await expect(gate).to.be.accessible();
  });

  it('shows nothing of the content while the usages load', async () => {
    await freshStart('healthy');
    await addFault({ route: 'GET /v1/Usages', mode: 'delay', delayMs: 600 });
    const gate = await fixture<FeatureGate>(
      html`<feature-gate feature="sso"
        ><p class="gated">SSO settings</p>
        <p slot="loading" class="waiting">Checking…</p></feature-gate
      >`,
    );
    expect(gate.state).to.equal('loading');
    expect(contentShown(gate)).to.equal(false);
    const loading = gate.shadowRoot!.querySelector<HTMLSlotElement>('slot[name="loading"]')!;
    expect(loading.assignedElements().length).to.equal(1);
    await settled(gate);
    expect(contentShown(gate)).to.equal(true);
  });

  it('shows the fallback to a customer without the feature, which opens the plans', async () => {
    await freshStart('starter-plan');
    const gate = await fixture<FeatureGate>(
      html`<feature-gate feature="sso"><p class="gated">SSO settings</p></feature-gate>`,
    );
    await settled(gate);
    expect(gate.state).to.equal('denied');
    expect(contentShown(gate)).to.equal(false);
    // The meters' wording: the name, a colon, what stands.
    // Pro is the least expensive plan that includes single sign-on: named, with its switch.
    await waitUntil(() => partText(gate, 'prompt').includes('included in Pro'), 'the suggestion');
    expect(partText(gate, 'prompt')).to.equal(
      'sso: not included in your plan; included in Pro. Switch to Pro',
    );
    await expect(gate).to.be.accessible();
    part<HTMLButtonElement>(gate, 'button')!.click();
    expect(await openedPortalPath()).to.contain('upgrade');
  });

  it('says a plan waiting for its checkout starts with the feature, and completes it', async () => {
    // The pending customer's Pro plan includes single sign-on once its checkout is complete:
    // the gate says so, as the meter does, rather than "not included in your plan".
    const { gate, meter } = await gateBesideMeter('pending');
    expect(gate.state).to.equal('pending');
    expect(gate.entitled).to.equal(false);
    expect(contentShown(gate)).to.equal(false);
    expect(partText(gate, 'prompt')).to.equal(
      'Single sign-on: starts once your subscription is complete. Complete your subscription',
    );
    expect(gate.shadowRoot!.textContent).to.not.contain('not included');
    await waitUntil(() => meter.getAttribute('state') === 'pending', 'the meter pending');
    await expect(gate).to.be.accessible();
    const remedy = oneEvent(gate, 'billing-remedy');
    part<HTMLButtonElement>(gate, 'remedy')!.click();
    expect((await remedy).detail).to.deep.equal({
      page: 'subscribe',
      code: 'subscription-pending',
      feature: 'sso',
    });
    expect(await openedPortalPath()).to.match(/^\/hosted\/subscribe\//);
  });

  it('withholds a suspended plan’s feature and says so and why, as the meter does, with its remedy', async () => {
    // Pro includes single sign-on, but a suspended subscription gives no rights; this one is
    // suspended because its payment method no longer works.
    const { gate, meter } = await gateBesideMeter('suspended');
    expect(gate.state).to.equal('denied');
    expect(contentShown(gate)).to.equal(false);
    expect(partText(gate, 'prompt')).to.equal(
      'Single sign-on: paused. Your subscription is suspended: your payment method no longer works. Update payment method',
    );
    await waitUntil(() => part(meter, 'state') !== null, 'the meter shown');
    expect(partText(meter, 'state')).to.equal('Included, paused while suspended');
    expect(part(meter, 'state')!.hasAttribute('data-on')).to.equal(false);
    await expect(gate).to.be.accessible();
    const remedy = oneEvent(gate, 'billing-remedy');
    part<HTMLButtonElement>(gate, 'remedy')!.click();
    expect((await remedy).detail).to.deep.equal({
      page: 'register',
      code: 'payment-method-invalid',
      feature: 'sso',
    });
    expect(await openedPortalPath()).to.match(/^\/hosted\/register\//);
  });

  // Denied for a reason of the subscription, not of the plan: the prompt says it and offers the
  // first step that works, never "not included".
  const denials = [
    {
      name: 'asks a suspended customer with overdue invoices to pay them first',
      customer: 'capping-reached',
      prompt: 'Single sign-on: paused while your subscription is suspended. Pay overdue invoices',
      page: 'pay-invoice',
      opens: /^\/hosted\/charge\//,
    },
    {
      name: 'invites a customer without a plan to choose one, rather than say it lacks the feature',
      customer: 'no-subscription',
      prompt: 'Single sign-on: choose a plan to get started. See plans',
      page: 'offers',
      opens: /^\/hosted\/offers\//,
    },
  ];
  for (const denial of denials) {
    it(denial.name, async () => {
      await freshStart(denial.customer);
      const gate = await fixture<FeatureGate>(
        html`<feature-gate feature="sso" label="Single sign-on"
          ><p class="gated">SSO</p></feature-gate
        >`,
      );
      await settled(gate);
      expect(gate.state).to.equal('denied');
      expect(partText(gate, 'prompt')).to.equal(denial.prompt);
      expect(gate.shadowRoot!.textContent).to.not.contain('not included');
      await expect(gate).to.be.accessible();
      const remedy = oneEvent(gate, 'billing-remedy');
      part<HTMLButtonElement>(gate, 'remedy')!.click();
      expect((await remedy).detail.page).to.equal(denial.page);
      expect(await openedPortalPath()).to.match(denial.opens);
    });
  }

  it('takes a fallback of the page and a minimum quantity', async () => {
    await freshStart('healthy'); // 3 of 5 seats used: 2 more fit, 3 do not
    const two = await fixture<FeatureGate>(
      html`<feature-gate feature="seats" min="2"><p class="gated">Invite two</p></feature-gate>`,
    );
    const three = await fixture<FeatureGate>(
      html`<feature-gate feature="seats" min="3"
        ><p class="gated">Invite three</p>
        <p slot="fallback">Buy seats first</p></feature-gate
      >`,
    );
    await settled(two);
    await settled(three);
    expect(two.state).to.equal('granted');
    expect(three.state).to.equal('denied');
    const fallback = three.shadowRoot!.querySelector<HTMLSlotElement>('slot[name="fallback"]')!;
    expect(fallback.assignedElements()[0]?.textContent).to.equal('Buy seats first');
  });

  it('leaves the plans to the plan picker of the page, and points to it', async () => {
    await freshStart('starter-plan');
    const wrapper = await fixture<HTMLElement>(
      html`<div>
        <feature-gate feature="sso"><p class="gated">SSO</p></feature-gate>
        <plan-picker></plan-picker>
      </div>`,
    );
    const gate = wrapper.querySelector<FeatureGate>('feature-gate')!;
    await settled(gate);
    await gate.updateComplete;
    // The picker is where the plans are: the gate offers no "See plans" of its own.
    expect(part(gate, 'button')).to.equal(null);
    // The sentence still names the plan that includes it, as the meters do.
    await waitUntil(() => partText(gate, 'prompt').includes('included in Pro'), 'the plan named');
    expect(partText(gate, 'prompt')).to.equal(
      'sso: not included in your plan; included in Pro. See what to do',
    );
    part<HTMLButtonElement>(gate, 'pointer')!.click();
    expect(document.activeElement).to.equal(wrapper.querySelector('plan-picker'));
    expect(document.querySelector('body > billing-portal')).to.equal(null);
  });

  it('fires billing-entitlement-change when a plan change grants the feature', async () => {
    await freshStart('starter-plan');
    const gate = await fixture<FeatureGate>(
      html`<feature-gate feature="sso"><p class="gated">SSO settings</p></feature-gate>`,
    );
    await settled(gate);
    expect(gate.state).to.equal('denied');
    // The change is made elsewhere (the host's back end); the page re-reads its usages.
    const quote = await (
      await fetch('/billing/plan/quote', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ offer: 'pro' }),
      })
    ).json();
    await fetch('/billing/plan', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        offer: 'pro',
        idempotencyKey: 'gate-test-change-0001',
        confirmedAmountTotal: quote.AmountTotalDue,
        confirmedNextTermAmountTotal: quote.NextTerm.AmountTotal,
      }),
    });
    const changed = oneEvent(
      gate,
      'billing-entitlement-change',
    ) as Promise<BillingEntitlementChangeEvent>;
    await getUsageStore('/billing').refresh();
    const { detail } = await changed;
    expect(detail).to.deep.equal({ feature: 'sso', entitled: true, previous: false });
    await gate.updateComplete;
    expect(contentShown(gate)).to.equal(true);
  });
});
