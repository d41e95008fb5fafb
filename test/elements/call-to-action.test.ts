import { expect, fixture, html } from '@open-wc/testing';
import '../../src/elements/usage-meter/define.js';
import '../../src/elements/buy-feature/define.js';
import '../../src/elements/feature-gate/define.js';
import '../../src/elements/plan-picker/define.js';
import '../../src/elements/billing-portal/define.js';
import type { BillingRemedyEvent } from '../../src/client/events.js';
import type { ReactiveElement } from 'lit';
import { addFault, freshStart, resetSandbox, signIn, until } from '../browser/billing.js';
import type { UsageMeter } from '../../src/elements/usage-meter/usage-meter.js';
import { waitFor } from '../time.js';

// One call to action per page region (elements/shared/call-to-action.ts): in each state of the
// account that every element meets, the page offers its remedy once, calmly, and the other
// elements point to it; the page loads without a failed request or a console error.

const TAGS = ['usage-meter', 'buy-feature', 'feature-gate', 'plan-picker', 'billing-portal'];
/** The parts of a button or link that remedies a state (a portal workflow, a retry, the plans). */
const REMEDY_PARTS = ['remedy', 'retry', 'see-plans', 'sign-in'];

const elementsOf = (root: Element) =>
  [...root.querySelectorAll<HTMLElement>(TAGS.join(','))].filter((el) => el.shadowRoot);

const visible = (node: Element) => {
  const box = node.getBoundingClientRect();
  return box.width > 0 && box.height > 0;
};

/** The visible remedies of the elements under `root`, as "tag[feature]: label". */
function remediesIn(root: Element): string[] {
  return elementsOf(root).flatMap((el) =>
    [...el.shadowRoot!.querySelectorAll<HTMLElement>('button, a')]
      .filter((node) => REMEDY_PARTS.some((name) => node.part.contains(name)) && visible(node))
      .map(
        (node) =>
          `${el.localName}[${el.getAttribute('feature') ?? ''}]: ${node.textContent!.replace(/\s+/g, ' ').trim()}`,
      ),
  );
}

const text = (node: Element | null | undefined) =>
  (node?.textContent ?? '').replace(/\s+/g, ' ').trim();

const pointersIn = (root: Element) =>
  elementsOf(root).flatMap((el) => [
    ...el.shadowRoot!.querySelectorAll<HTMLElement>('[part~="pointer"]'),
  ]);

/** Whether an element still waits for something (usages, a price, an add-on's standing). */
function busy(el: HTMLElement): boolean {
  if ((el as HTMLElement & { state?: string }).state === 'loading') return true;
  const root = el.shadowRoot!;
  return (
    root.querySelector('[aria-busy="true"]') !== null ||
    root.querySelector('[data-standing="unknown"]') !== null
  );
}

async function settled(root: Element): Promise<void> {
  await until(() => elementsOf(root).every((el) => !busy(el)), 'every element to settle');
  // The elements agree on who offers each remedy through updates they ask of each other after
  // their own: agreed once a pass finds every update done and none asked again.
  await waitFor(async () => {
    const elements = elementsOf(root) as (HTMLElement & ReactiveElement)[];
    const done = await Promise.all(elements.map((el) => el.updateComplete));
    return done.every(Boolean) && elements.every((el) => !el.isUpdatePending);
  }, 'the elements to agree on who offers each remedy');
}

/** The overview of a dashboard: meters, a buy control, a gate, an add-on and a second gate. */
const overview = (marked = '') =>
  html`<main>
    <section aria-label="Plan usage">
      <usage-meter feature="seats" label="Seats"></usage-meter>
      <usage-meter feature="projects" label="Projects"></usage-meter>
    </section>
    <section aria-label="Add seats">
      <buy-feature feature="seats" label="seats" label-one="seat"></buy-feature>
    </section>
    <section aria-label="Included">
      <feature-gate feature="sso" label="Single sign-on"><p>SSO on</p></feature-gate>
      <buy-feature
        feature="priority-support"
        ?data-billing-remedy=${marked === 'add-on'}
      ></buy-feature>
    </section>
    <section aria-label="SSO settings">
      <feature-gate feature="sso" label="Single sign-on"><p>SSO settings</p></feature-gate>
    </section>
  </main>`;

/** What the page's fetches answered: every request of the elements to the proxy. */
let answers: { url: string; status: number }[] = [];
let consoleErrors: string[] = [];
const realFetch = window.fetch;
const realConsoleError = console.error;

describe('one call to action per page region', () => {
  beforeEach(() => {
    answers = [];
    consoleErrors = [];
    window.fetch = async (...args: Parameters<typeof fetch>) => {
      const response = await realFetch(...args);
      answers.push({ url: response.url, status: response.status });
      return response;
    };
    console.error = (...args: unknown[]) => {
      consoleErrors.push(args.map(String).join(' '));
      realConsoleError(...args);
    };
  });
  afterEach(() => {
    window.fetch = realFetch;
    console.error = realConsoleError;
  });

  const states = [
    ['capping-reached', 'buy-feature[seats]: Pay overdue invoices'],
    ['suspended', 'buy-feature[seats]: Update payment method'],
    ['pending', 'buy-feature[seats]: Complete your subscription'],
    ['starter-plan', 'usage-meter[seats]: Switch to Pro'],
    ['no-subscription', 'usage-meter[seats]: See plans'],
  ] as const;

  for (const [customer, remedy] of states) {
    it(`offers ${customer}'s remedy once, calmly, with a clean console`, async () => {
      await freshStart(customer);
      const page = await fixture<HTMLElement>(overview());
      await settled(page);
      expect(remediesIn(page)).to.deep.equal([remedy]);
      // The others say their state calmly and point to it; none is an alarm on page load.
      expect(pointersIn(page).length).to.be.greaterThan(0);
      for (const el of elementsOf(page)) {
        const alerts = [...el.shadowRoot!.querySelectorAll('[role="alert"]')];
        expect(alerts.map((alert) => alert.textContent!.trim())).to.deep.equal(
          alerts.map(() => ''),
        );
      }
      const box = page.querySelector('buy-feature')!.shadowRoot!.querySelector('[part~="error"]');
      if (box) expect(box.getAttribute('data-tone')).to.equal('calm');
      expect(answers.filter(({ status }) => status >= 400)).to.deep.equal([]);
      expect(consoleErrors).to.deep.equal([]);
      for (const el of elementsOf(page)) await expect(el).to.be.accessible();
    });
  }

  it('offers one "Try again" for a failed read, and it reads again for every element', async () => {
    await freshStart('healthy');
    // The service fails every read (each element that meets the failure may read again).
    await addFault({ route: 'GET /v1/Usages', mode: 'status-500', times: 100 });
    const page = await fixture<HTMLElement>(overview());
    await settled(page);
    expect(remediesIn(page)).to.deep.equal(['usage-meter[seats]: Try again']);
    const retry = page
      .querySelector('usage-meter')!
      .shadowRoot!.querySelector<HTMLElement>('[part~="retry"]')!;
    await resetSandbox();
    retry.click();
    await until(
      () => [...page.querySelectorAll('feature-gate')].every((gate) => gate.state === 'granted'),
      'the gates to read again',
    );
    await settled(page);
    expect(remediesIn(page)).to.deep.equal([]);
  });

  it('says once per page, not per region, that another account signed in, with Reload', async () => {
    await freshStart('healthy');
    const page = await fixture<HTMLElement>(
      html`<div>
        <div data-billing-region>
          <usage-meter feature="seats" label="Seats"></usage-meter>
          <buy-feature feature="seats"></buy-feature>
        </div>
        <div data-billing-region>
          <feature-gate feature="sso" label="Single sign-on"><p>SSO</p></feature-gate>
          <buy-feature feature="priority-support"></buy-feature>
        </div>
      </div>`,
    );
    await settled(page);
    const addOn = page.querySelector('buy-feature[feature="priority-support"]')!;
    expect(addOn.shadowRoot!.querySelector('[part~="add-on"]')).to.not.equal(null);
    // Another tab of the site signs in as another customer; this page reads again.
    signIn('unlimited');
    const meter = page.querySelector<UsageMeter>('usage-meter')!;
    await meter.refresh().catch(() => undefined);
    await until(() => meter.state === 'error', 'the meter to say it');
    await settled(page);
    // Reading again cannot help: the page is reloaded, and one element offers it.
    expect(remediesIn(page)).to.deep.equal(['usage-meter[seats]: Reload the page']);
    expect(text(meter.shadowRoot!.querySelector('[role="alert"]'))).to.equal(
      'Another account has signed in since this page opened. Reload the page to see its billing.',
    );
    const buy = page.querySelector('buy-feature')!;
    expect(text(buy.shadowRoot!.querySelector('[part~="waits"]'))).to.equal(
      'Another account has signed in since this page opened. See what to do',
    );
    expect(text(page.querySelector('feature-gate')!.shadowRoot!.querySelector('p'))).to.equal(
      'Single sign-on: unavailable since another account signed in.',
    );
    for (const el of elementsOf(page))
      expect(el.shadowRoot!.textContent).to.not.contain('Try again');
    // The add-on stays an add-on under its name, with no quantity field, while the usages are
    // unknown.
    expect(addOn.shadowRoot!.querySelector('input')).to.equal(null);
    expect(text(addOn.shadowRoot!.querySelector('[part~="add-on"] button'))).to.equal(
      'Add Priority support',
    );
    // Its pointers lead to the Reload button.
    buy.shadowRoot!.querySelector<HTMLElement>('[part~="pointer"]')!.click();
    expect(meter.shadowRoot!.activeElement?.textContent?.trim()).to.equal('Reload the page');
    for (const el of elementsOf(page)) await expect(el).to.be.accessible();
  });

  it('offers the remedy once in each region the host marks', async () => {
    await freshStart('suspended');
    const page = await fixture<HTMLElement>(
      html`<div>
        <div data-billing-region>
          <buy-feature feature="seats"></buy-feature>
          <feature-gate feature="sso"><p>SSO</p></feature-gate>
        </div>
        <div data-billing-region>
          <feature-gate feature="sso"><p>SSO</p></feature-gate>
          <buy-feature feature="priority-support"></buy-feature>
        </div>
      </div>`,
    );
    await settled(page);
    expect(remediesIn(page)).to.deep.equal([
      'buy-feature[seats]: Update payment method',
      'feature-gate[sso]: Update payment method',
    ]);
  });

  it('lets the host choose the element that offers it, and points there', async () => {
    await freshStart('capping-reached');
    const page = await fixture<HTMLElement>(overview('add-on'));
    await settled(page);
    expect(remediesIn(page)).to.deep.equal(['buy-feature[priority-support]: Pay overdue invoices']);
    const seats = page.querySelector('buy-feature[feature="seats"]')!;
    expect(seats.shadowRoot!.querySelector('[part~="waits"]')!.textContent).to.contain(
      'Paused until the overdue invoices are paid.',
    );
    seats.shadowRoot!.querySelector<HTMLElement>('[part~="pointer"]')!.click();
    const chosen = page.querySelector('buy-feature[feature="priority-support"]')!;
    expect(chosen.shadowRoot!.activeElement?.textContent?.trim()).to.equal('Pay overdue invoices');
  });

  it('lets a button of the host page offer it, the elements pointing there', async () => {
    await freshStart('suspended');
    const page = await fixture<HTMLElement>(
      html`<div>
        <div data-billing-region>
          <buy-feature feature="seats"></buy-feature>
          <feature-gate feature="sso" label="Single sign-on"><p>SSO</p></feature-gate>
          <div class="summary" data-billing-remedy="register restart">
            <button type="button">Update the card</button>
          </div>
        </div>
        <div data-billing-region>
          <buy-feature feature="seats"></buy-feature>
        </div>
      </div>`,
    );
    await settled(page);
    // The host's own call to action comes after the elements in its region and still offers
    // it there; the other region has no such button, so its element offers the remedy itself.
    expect(remediesIn(page)).to.deep.equal(['buy-feature[seats]: Update payment method']);
    const [first, second] = page.querySelectorAll('buy-feature');
    expect(first!.shadowRoot!.querySelector('[part~="remedy"]')).to.equal(null);
    expect(second!.shadowRoot!.querySelector('[part~="remedy"]')).to.not.equal(null);
    first!.shadowRoot!.querySelector<HTMLElement>('[part~="pointer"]')!.click();
    expect(document.activeElement?.textContent).to.equal('Update the card');
    for (const el of elementsOf(page)) await expect(el).to.be.accessible();
  });

  it('leaves the plans to the page’s plan picker, and billing to its portal', async () => {
    await freshStart('no-subscription');
    const plans = await fixture<HTMLElement>(
      html`<div>
        <usage-meter feature="seats" label="Seats"></usage-meter>
        <buy-feature feature="seats"></buy-feature>
        <plan-picker></plan-picker>
      </div>`,
    );
    await settled(plans);
    // The picker's own cards are the way to a plan: nobody else offers "See plans".
    expect(remediesIn(plans)).to.deep.equal([]);
    expect(plans.querySelector('usage-meter')!.state).to.equal('covered');
    // Without a subscription there is no plan to lack the feature: the wait says there is none
    // yet to screen readers (the picker is where the plans are), and shows only the pointer.
    const waits = plans.querySelector('buy-feature')!.shadowRoot!.querySelector('[part~="waits"]')!;
    expect(waits.querySelector('.visually-hidden')!.textContent).to.equal('No plan yet.');
    expect(waits.textContent).to.not.contain('Not included');
    expect(waits.querySelector('[part~="pointer"]')!.textContent!.trim()).to.equal(
      'See what to do',
    );

    await freshStart('suspended');
    const billing = await fixture<HTMLElement>(
      html`<div>
        <buy-feature feature="seats"></buy-feature>
        <billing-portal page="home"></billing-portal>
      </div>`,
    );
    await settled(billing.querySelector('buy-feature')!.parentElement!);
    expect(remediesIn(billing)).to.deep.equal([]);
    const buy = billing.querySelector('buy-feature')!;
    expect(buy.shadowRoot!.querySelector('[part~="waits"]')!.textContent).to.contain(
      'Needs a working payment method.',
    );
  });

  it('says a payment method is needed, not a working one, when there is none at all', async () => {
    // The customer has never given a card: "working" would suggest one is on file. The cause
    // words the wait as it words the remedy ("Add a payment method").
    await freshStart('no-payment-method');
    // Each region on its own (the first leaves before the second comes); the French texts load
    // on demand, so the wait's words are awaited rather than read once settled.
    const waitsOf = async (lang: string, words: string) => {
      const region = await fixture<HTMLElement>(
        html`<div lang=${lang}>
          <buy-feature feature="seats"></buy-feature>
          <billing-portal page="home"></billing-portal>
        </div>`,
      );
      await settled(region);
      const waits = () =>
        region
          .querySelector('buy-feature')!
          .shadowRoot!.querySelector('[part~="waits"]')
          ?.textContent!.replace(/\s+/g, ' ') ?? '';
      await until(() => waits().includes(words), `"${words}"`);
      region.remove();
      return waits();
    };
    const english = await waitsOf('en', 'Needs a payment method.');
    expect(english).to.not.contain('working');
    const french = await waitsOf('fr', 'Nécessite un moyen de paiement.');
    expect(french).to.not.contain('valide');
  });

  it('says the state in brief where it points to the element that says why', async () => {
    const region = () =>
      fixture<HTMLElement>(
        html`<div>
          <buy-feature feature="seats"></buy-feature>
          <feature-gate feature="sso" label="Single sign-on"><p>SSO</p></feature-gate>
        </div>`,
      );
    const prompt = (page: HTMLElement) =>
      page
        .querySelector('feature-gate')!
        .shadowRoot!.querySelector('[part~="prompt"]')!
        .textContent!.replace(/\s+/g, ' ')
        .trim();
    await freshStart('suspended');
    const suspended = await region();
    await settled(suspended);
    // The purchase says why (the dead card) and offers its remedy; the gate, the state.
    expect(remediesIn(suspended)).to.deep.equal(['buy-feature[seats]: Update payment method']);
    expect(prompt(suspended)).to.equal(
      'Single sign-on: paused while your subscription is suspended. See what to do',
    );
    // The first customer's elements leave the page before the second signs in.
    suspended.remove();
    await freshStart('no-subscription');
    const none = await region();
    await settled(none);
    await until(() => prompt(none).includes('no plan yet'), 'the second customer read');
    // Without a plan the gate names its feature and points; screen readers hear the state.
    const gate = none.querySelector('feature-gate')!.shadowRoot!;
    expect(gate.querySelector('[part~="prompt"] [aria-hidden="true"]')!.textContent).to.equal(
      'Single sign-on',
    );
    expect(gate.querySelector('[part~="prompt"] .visually-hidden')!.textContent).to.equal(
      'Single sign-on: no plan yet.',
    );
  });

  it('says a pending plan starts once complete where its completion is offered', async () => {
    await freshStart('pending');
    const page = await fixture<HTMLElement>(overview());
    await settled(page);
    expect(remediesIn(page)).to.deep.equal(['buy-feature[seats]: Complete your subscription']);
    // The meters show the plan's terms; the control that offers the completion says the rest.
    for (const meter of page.querySelectorAll('usage-meter')) {
      expect(meter.state).to.equal('pending');
      expect(meter.shadowRoot!.textContent).to.not.contain('Starts once');
    }
    // Without it, the first meter says when the terms start and offers to complete.
    page.querySelector('buy-feature[feature="seats"]')!.remove();
    page.querySelector('section[aria-label="Included"]')!.remove();
    page.querySelector('section[aria-label="SSO settings"]')!.remove();
    await settled(page);
    await until(
      () => remediesIn(page).join() === 'usage-meter[seats]: Complete your subscription',
      'the first meter to offer the completion',
    );
    const seats = page.querySelector('usage-meter')!;
    expect(seats.shadowRoot!.querySelector('[part~="detail"]')!.textContent).to.equal(
      'Starts once your subscription is complete',
    );
  });

  it('answers a press of the unavailable Buy where it was pressed, as a refusal', async () => {
    await freshStart('capping-reached');
    const page = await fixture<HTMLElement>(overview());
    await settled(page);
    const addOn = page.querySelector('buy-feature[feature="priority-support"]')!;
    expect(addOn.shadowRoot!.querySelector('[part~="remedy"]')).to.equal(null);
    addOn.shadowRoot!.querySelector<HTMLElement>('[part~="add"]')!.click();
    await (addOn as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
    const refusal = addOn.shadowRoot!.querySelector('[role="alert"] [part~="error"]')!;
    expect(refusal.getAttribute('data-tone')).to.equal(null);
    const remedy = refusal.querySelector<HTMLElement>('[part~="remedy"]')!;
    expect(remedy.textContent!.trim()).to.equal('Pay overdue invoices');
    const opened: BillingRemedyEvent[] = [];
    addOn.addEventListener('billing-remedy', (event) => {
      event.preventDefault();
      opened.push(event as BillingRemedyEvent);
    });
    remedy.click();
    expect(opened[0]!.detail.page).to.equal('pay-invoice');
  });
});
