import { expect, fixture, html } from '@open-wc/testing';
import '../../src/elements/usage-meter/define.js';
import type { UsageMeter } from '../../src/elements/usage-meter/usage-meter.js';
import type { BillingRemedyEvent } from '../../src/client/events.js';
import { loadLanguage } from '../../src/client/i18n.js';
import { freshStart, sandbox, serviceApi, until } from '../browser/billing.js';

// A consumption past what the plan includes, or at the plan's cap: what the extra costs so far,
// at the catalogue's price of each unit, and the one way out. The default fixture: Pro includes
// 10,000 API calls at $0.01 each beyond; Starter 1,000 at $0.02 each, capped at 5,000; Business
// 100,000.

const part = (el: UsageMeter, name: string) =>
  el.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);

const text = (node: Element | null | undefined) =>
  (node?.textContent ?? '').replace(/\s+/g, ' ').trim();

const meters = (root: Element) => [...root.querySelectorAll<UsageMeter>('usage-meter')];

/** What the host's back end does when the customer uses the product: reports API calls. */
function reportApiCalls(customer: string, increment: number): Promise<unknown> {
  return serviceApi('Usage', {
    ReferenceCustomer: customer,
    ReferenceFeature: 'api-calls',
    Increment: increment,
  });
}

/** The next `billing-remedy` of `el`, cancelled so that no portal opens. */
function nextRemedy(el: UsageMeter): Promise<BillingRemedyEvent> {
  return new Promise((resolve) =>
    el.addEventListener(
      'billing-remedy',
      (event) => {
        event.preventDefault();
        resolve(event);
      },
      { once: true },
    ),
  );
}

const overrun = (el: UsageMeter) =>
  until(() => part(el, 'overrun') !== null, 'the line under the figures of an overrun');

describe('<usage-meter> past its plan', () => {
  // First in the file (each file has its own page): nothing of the overrun's code loaded yet.
  it('within its plan, shows no overrun line and loads none of its code', async () => {
    await freshStart('healthy');
    const el = await fixture<UsageMeter>(
      html`<usage-meter feature="api-calls" label="API calls"></usage-meter>`,
    );
    await until(() => el.state === 'ready', 'the figures');
    await el.updateComplete;
    expect(text(part(el, 'figures'))).to.equal('1,200 of 10,000');
    expect(part(el, 'overrun')).to.equal(null);
    const scripts = performance.getEntriesByType('resource').map((entry) => entry.name);
    expect(scripts.some((name) => name.includes('/usage-meter/usage-meter.'))).to.equal(true);
    expect(scripts.filter((name) => /\/usage-meter\/overrun/.test(name))).to.deep.equal([]);
  });

  it('prices the use beyond the plan at the catalogue’s unit price, and pushes no costlier plan', async () => {
    await freshStart('healthy');
    await reportApiCalls('healthy', 11_200);
    const el = await fixture<UsageMeter>(
      html`<usage-meter feature="api-calls" label="API calls"></usage-meter>`,
    );
    await overrun(el);
    expect(text(part(el, 'figures'))).to.equal('12,400 of 10,000');
    expect(text(part(el, 'level'))).to.equal('Over the limit');
    // 2,400 beyond Pro's 10,000 at $0.01 each: $24.00, far from the $150.00 a month Business
    // costs more than Pro ($199.00 against $49.00). Suggesting it would cost the customer more.
    expect(text(part(el, 'overrun'))).to.equal(
      '2,400 beyond your plan: $24.00 so far, at $0.01 each.',
    );
    expect(el.shadowRoot!.querySelectorAll('button')).to.have.length(0);
    await expect(el).to.be.accessible();
  });

  it('offers the plan that includes the use once it costs less than the plan with its extra use', async () => {
    await freshStart('healthy');
    // 1,200 used on Pro: 13,800 more make 15,000 beyond, $150.00, what Business costs more.
    await reportApiCalls('healthy', 23_799);
    const el = await fixture<UsageMeter>(
      html`<usage-meter feature="api-calls" label="API calls"></usage-meter>`,
    );
    await overrun(el);
    expect(text(part(el, 'overrun'))).to.equal(
      '14,999 beyond your plan: $149.99 so far, at $0.01 each.',
    );
    // One more call: Business no longer costs more than Pro with this use.
    await reportApiCalls('healthy', 1);
    await el.refresh();
    await until(() => part(el, 'remedy') !== null, 'the plan offered');
    expect(text(part(el, 'overrun'))).to.equal(
      '15,000 beyond your plan: $150.00 so far, at $0.01 each. ' +
        'Business includes 100,000: at this use, it costs less than Pro. Switch to Business',
    );
    expect(el.shadowRoot!.querySelectorAll('button')).to.have.length(1);
    await expect(el).to.be.accessible();
    const asked = nextRemedy(el);
    part(el, 'remedy')!.click();
    expect((await asked).detail).to.deep.equal({
      page: 'change-plan',
      feature: 'api-calls',
      offer: 'business',
    });
  });

  it('takes the customer’s discount off the cost, and off the plans’ prices it compares', async () => {
    await freshStart('discounted');
    await reportApiCalls('discounted', 10_200);
    const el = await fixture<UsageMeter>(
      html`<usage-meter feature="api-calls" label="API calls"></usage-meter>`,
    );
    await overrun(el);
    // 11,000 on Pro: 1,000 beyond at $0.01, less 20% (a discount on all charges), as the service
    // bills it.
    expect(text(part(el, 'overrun'))).to.equal(
      '1,000 beyond your plan: $8.00 so far, at $0.01 each less your discount (20% off everything).',
    );
    // 15,000 beyond: $120.00 after the discount, what Business costs more after it ($150.00
    // less 20%).
    await reportApiCalls('discounted', 14_000);
    await el.refresh();
    await until(() => part(el, 'remedy') !== null, 'the plan offered');
    expect(text(part(el, 'overrun'))).to.equal(
      '15,000 beyond your plan: $120.00 so far, at $0.01 each less your discount (20% off everything). ' +
        'Business includes 100,000: at this use, it costs less than Pro. Switch to Business',
    );
  });

  it('says it in French, with the locale’s figures and typography', async () => {
    await freshStart('healthy');
    await reportApiCalls('healthy', 23_800);
    const el = await fixture<UsageMeter>(
      html`<usage-meter feature="api-calls" label="Appels API" lang="fr"></usage-meter>`,
    );
    await loadLanguage('fr');
    await until(() => text(part(el, 'overrun')).includes('au-delà'), 'the overrun line in French');
    const line = part(el, 'overrun')!.querySelector('p')!.textContent!.trim();
    expect(line).to.equal(
      '15\u202f000 au-delà de votre offre\u00a0: 150,00\u00a0$US à ce jour, à 0,01\u00a0$US l’unité. ' +
        'Business inclut 100\u202f000\u00a0: à cette utilisation, Business revient moins cher que Pro.',
    );
    expect(text(part(el, 'remedy'))).to.equal('Passer à Business');
    expect(text(part(el, 'level'))).to.equal('Limite dépassée');
  });

  it('says the cap ahead once past the plan, and offers the plan change near it', async () => {
    await freshStart('starter-plan');
    // Stella has used 400 of Starter's 1,000; 1,100 more make 500 beyond it, far from the cap
    // of 5,000, and $10.00 so far, less than Pro costs more than Starter: no plan pushed.
    await reportApiCalls('starter-plan', 1_100);
    const el = await fixture<UsageMeter>(
      html`<usage-meter feature="api-calls" label="API calls"></usage-meter>`,
    );
    await overrun(el);
    expect(text(part(el, 'overrun'))).to.equal(
      '500 beyond your plan: $10.00 so far, at $0.02 each. ' +
        'Your plan stops at 5,000: 3,500 more, then further use is refused.',
    );
    expect(part(el, 'remedy')).to.equal(null);
    // 4,900: within a tenth of the cap, the plan that lifts it is named, as at the cap.
    await reportApiCalls('starter-plan', 3_400);
    await el.refresh();
    await until(() => part(el, 'remedy') !== null, 'the plan change near the cap');
    expect(text(part(el, 'overrun'))).to.equal(
      '3,900 beyond your plan: $78.00 so far, at $0.02 each. ' +
        'Your plan stops at 5,000: 100 more, then further use is refused. ' +
        'Pro includes 10,000. Switch to Pro',
    );
    await expect(el).to.be.accessible();
    el.lang = 'fr';
    await loadLanguage('fr');
    await until(() => text(part(el, 'overrun')).includes('encore'), 'the cap ahead in French');
    expect(text(part(el, 'overrun'))).to.contain(
      'Votre offre s’arrête à 5 000 : encore 100, puis toute utilisation supplémentaire est refusée.',
    );
  });

  it('at the cap of its plan, says that further use is refused, and offers the plan change', async () => {
    await freshStart('starter-plan');
    // Stella has used 400 of Starter's 1,000; 4,600 more reach its cap of 5,000.
    await reportApiCalls('starter-plan', 4_600);
    const refused = await reportApiCalls('starter-plan', 1).then(
      () => 'accepted',
      (error: Error) => error.message,
    );
    expect(refused).to.contain('exceed its maximum of 5000');
    const el = await fixture<UsageMeter>(
      html`<usage-meter feature="api-calls" label="API calls"></usage-meter>`,
    );
    await overrun(el);
    expect(text(part(el, 'figures'))).to.equal('5,000 of 1,000');
    expect(text(part(el, 'overrun'))).to.equal(
      '4,000 beyond your plan: $80.00 so far, at $0.02 each. ' +
        'Your plan stops at 5,000: further use is refused. Pro includes 10,000. Switch to Pro',
    );
    await expect(el).to.be.accessible();
    const asked = nextRemedy(el);
    part(el, 'remedy')!.click();
    expect((await asked).detail).to.include({ page: 'change-plan', offer: 'pro' });
    // In French too.
    el.lang = 'fr';
    await loadLanguage('fr');
    await until(() => text(part(el, 'overrun')).includes('refusée'), 'the cap in French');
    expect(text(part(el, 'overrun'))).to.equal(
      '4 000 au-delà de votre offre : 80,00 $US à ce jour, à 0,02 $US l’unité. ' +
        'Votre offre s’arrête à 5 000 : toute utilisation supplémentaire est refusée. ' +
        'Pro inclut 10 000. Passer à Pro',
    );
  });

  it('points to the element of its region that offers the plans, and offers them once it is gone', async () => {
    await freshStart('starter-plan');
    // 400 used: 2,100 more make 1,500 beyond Starter's 1,000 at $0.02, $30.00, what Pro costs
    // more than Starter.
    await reportApiCalls('starter-plan', 2_100);
    // Starter lacks seats: the seats meter, first in the region, offers "Switch to Pro".
    const root = await fixture<HTMLElement>(
      html`<section data-billing-region>
        <usage-meter feature="seats" label="Seats"></usage-meter>
        <usage-meter feature="api-calls" label="API calls"></usage-meter>
      </section>`,
    );
    const [seats, calls] = meters(root);
    await overrun(calls!);
    await until(() => part(seats!, 'remedy') !== null, 'the seats meter’s remedy');
    await calls!.updateComplete;
    expect(text(part(calls!, 'overrun'))).to.equal(
      '1,500 beyond your plan: $30.00 so far, at $0.02 each. ' +
        'Your plan stops at 5,000: 2,500 more, then further use is refused. ' +
        'Pro includes 10,000: at this use, it costs less than Starter. See what to do',
    );
    expect(part(calls!, 'remedy')).to.equal(null);
    expect(text(part(seats!, 'remedy'))).to.equal('Switch to Pro');
    // The figures stay: only the way out is left to the other element.
    expect(calls!.state).to.equal('ready');
    part(calls!, 'pointer')!.click();
    expect(seats!.shadowRoot!.activeElement).to.equal(part(seats!, 'remedy'));
    // Without the seats meter, the API calls meter offers the plan change itself.
    seats!.remove();
    await until(() => part(calls!, 'remedy') !== null, 'the remedy moving to the API calls meter');
    expect(text(part(calls!, 'remedy'))).to.equal('Switch to Pro');
    expect(part(calls!, 'pointer')).to.equal(null);
  });

  it('gives the region back its call to action once its use is within a plan again', async () => {
    await freshStart('starter-plan');
    await reportApiCalls('starter-plan', 2_100);
    // The API calls meter comes first: it offers the plans, the seats meter stands back.
    const root = await fixture<HTMLElement>(
      html`<section data-billing-region>
        <usage-meter feature="api-calls" label="API calls"></usage-meter>
        <usage-meter feature="seats" label="Seats"></usage-meter>
      </section>`,
    );
    const [calls, seats] = meters(root);
    await overrun(calls!);
    await until(() => seats!.state === 'covered', 'the seats meter to stand back');
    expect(text(part(calls!, 'remedy'))).to.equal('Switch to Pro');
    // A new period resets the use: nothing to price, nothing to offer; the seats meter says
    // its own state and offers the plans again.
    const { subscriptions } = await sandbox<{ subscriptions: { DatePeriodEnd: string }[] }>(
      'customers/starter-plan',
    );
    const periodEnd = Date.parse(subscriptions[0]!.DatePeriodEnd);
    await sandbox('clock', { set: new Date(periodEnd + 60_000).toISOString() });
    await calls!.refresh();
    await until(() => part(calls!, 'overrun') === null, 'the overrun line to go');
    await until(() => seats!.state === 'not-in-plan', 'the seats meter to speak again');
    expect(text(part(seats!, 'remedy'))).to.equal('Switch to Pro');
    expect(calls!.shadowRoot!.querySelector('button')).to.equal(null);
  });
});
