import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import type { TemplateResult } from 'lit';
import { loadLanguage, toLanguage } from '../../src/client/i18n.js';
import type { BuyFeature } from '../../src/elements/buy-feature/buy-feature.js';
import type { FeatureGate } from '../../src/elements/feature-gate/feature-gate.js';
import type { PlanPicker } from '../../src/elements/plan-picker/plan-picker.js';
import '../../src/elements/buy-feature/define.js';
import '../../src/elements/feature-gate/define.js';
import '../../src/elements/plan-picker/define.js';
import {
  closePortalDialogs,
  freshStart,
  openedPortalPath,
  part,
  partText,
  sandbox,
  sandboxStats,
  waitForText,
} from './buy-feature-helpers.js';

// A suspension named by its cause, against the real proxy over the real sandbox: the fixtures'
// `suspended` customer is suspended because its card no longer works. Each element, in a region
// of its own (so that each offers its remedy), says so and offers a new payment method, which
// the service needs before any restart; once a valid one is on file, the restart is what is left.

/** The gate, the buy control and the picker, each in its own region, in `lang`, once shown. */
async function elements(lang = 'en') {
  const region = (content: TemplateResult) => html`<div data-billing-region>${content}</div>`;
  const page = await fixture<HTMLElement>(
    html`<div lang=${lang}>
      ${region(html`<feature-gate feature="sso" label="Single sign-on"><p>SSO</p></feature-gate>`)}
      ${region(html`<buy-feature feature="seats"></buy-feature>`)}
      ${region(html`<plan-picker></plan-picker>`)}
    </div>`,
  );
  const gate = page.querySelector<FeatureGate>('feature-gate')!;
  const buy = page.querySelector<BuyFeature>('buy-feature')!;
  const picker = page.querySelector<PlanPicker>('plan-picker')!;
  await waitUntil(
    () =>
      part(gate, 'remedy') !== null &&
      part(buy, 'remedy') !== null &&
      part(picker, 'remedy') !== null,
    'every remedy shown',
    { timeout: 10000 },
  );
  // The elements speak English until their language's texts arrive (loaded on demand).
  await loadLanguage(toLanguage(lang));
  for (const element of [gate, buy, picker]) await element.updateComplete;
  return { gate, buy, picker };
}

/** What each element says, its remedy's label, and the portal page the remedy opens. */
function said(element: Element, textPart: string) {
  return { text: partText(element, textPart), remedy: partText(element, 'remedy') };
}

describe('a suspension named by its cause', () => {
  afterEach(closePortalDialogs);

  it('says the payment method no longer works, in every element, and asks for a new one', async () => {
    await freshStart('suspended');
    const { gate, buy, picker } = await elements();
    expect(said(gate, 'prompt')).to.deep.equal({
      text: 'Single sign-on: paused. Your subscription is suspended: your payment method no longer works. Update payment method',
      remedy: 'Update payment method',
    });
    await waitForText(buy, 'error', 'payment method no longer works');
    expect(said(buy, 'error').text).to.contain(
      'Your subscription is suspended: your payment method no longer works. Update it, then restart your subscription.',
    );
    expect(said(buy, 'error').remedy).to.equal('Update payment method');
    expect(said(picker, 'notice').text).to.contain(
      'Your subscription is suspended: your payment method no longer works. Update it, then restart your subscription before changing plan.',
    );
    expect(said(picker, 'remedy').remedy).to.equal('Update payment method');
    // The old wording, which never named the card, is gone.
    for (const element of [gate, buy, picker])
      expect(element.shadowRoot!.textContent).not.to.contain('Restart it to continue');
    for (const element of [gate, buy, picker]) await expect(element).to.be.accessible();
  });

  it('opens the portal’s page where a payment method is added, from each element', async () => {
    await freshStart('suspended');
    const { gate, buy, picker } = await elements();
    for (const element of [gate, buy, picker]) {
      part<HTMLButtonElement>(element, 'remedy')!.click();
      expect(await openedPortalPath()).to.match(/^\/hosted\/register\//);
      await closePortalDialogs();
    }
    expect((await sandboxStats()).appliedUsageChanges).to.equal(0);
  });

  it('says it in French too', async () => {
    await freshStart('suspended');
    const { gate, buy, picker } = await elements('fr');
    // partText folds every space; the raw text keeps the no-break space before each colon.
    expect(said(gate, 'prompt')).to.deep.equal({
      text: 'Single sign-on : en pause. Votre abonnement est suspendu : votre moyen de paiement ne fonctionne plus. Mettre à jour le moyen de paiement',
      remedy: 'Mettre à jour le moyen de paiement',
    });
    expect(gate.shadowRoot!.textContent).to.contain('est suspendu\u00a0: votre moyen de paiement');
    await waitForText(buy, 'error', 'ne fonctionne plus');
    expect(said(buy, 'error').text).to.contain(
      'Votre abonnement est suspendu : votre moyen de paiement ne fonctionne plus. Mettez-le à jour, puis réactivez votre abonnement.',
    );
    expect(said(picker, 'notice').text).to.contain(
      'Votre abonnement est suspendu : votre moyen de paiement ne fonctionne plus.',
    );
    expect(said(picker, 'remedy').remedy).to.equal('Mettre à jour le moyen de paiement');
  });

  it('offers the restart once a valid payment method is on file', async () => {
    await freshStart('suspended');
    // What a completed `register` workflow leaves: a valid card, the subscription still suspended.
    await sandbox('customers/suspended/payment-method', { state: 'valid' });
    const { gate, buy, picker } = await elements();
    expect(said(gate, 'prompt')).to.deep.equal({
      text: 'Single sign-on: paused while your subscription is suspended. Restart subscription',
      remedy: 'Restart subscription',
    });
    await waitForText(buy, 'error', 'Restart it to continue');
    expect(said(buy, 'error').remedy).to.equal('Restart subscription');
    expect(said(picker, 'notice').text).to.contain('Restart it before changing plan');
    expect(said(picker, 'remedy').remedy).to.equal('Restart subscription');
    for (const element of [gate, buy, picker])
      expect(element.shadowRoot!.textContent).not.to.contain('no longer works');
    part<HTMLButtonElement>(gate, 'remedy')!.click();
    expect(await openedPortalPath()).to.match(/^\/hosted\/restart\//);
  });
});
