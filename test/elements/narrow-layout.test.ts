import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../src/elements/billing-portal/define.js';
import '../../src/elements/buy-feature/define.js';
import '../../src/elements/plan-picker/define.js';
import '../../src/elements/usage-meter/define.js';
import type { BillingPortal } from '../../src/elements/billing-portal/billing-portal.js';
import { openPortalPage } from '../../src/elements/billing-portal/open.js';
import type { BuyFeature } from '../../src/elements/buy-feature/buy-feature.js';
import type { PlanPicker } from '../../src/elements/plan-picker/plan-picker.js';
import type { UsageMeter } from '../../src/elements/usage-meter/usage-meter.js';
import { freshStart, serviceApi, until } from '../browser/billing.js';
import { closePortalDialogs, part, partText, waitForPrice } from './buy-feature-helpers.js';

// Layout and behaviour on narrow hosts, measured in the browser: the plan cards in balanced rows
// at every width, an on/off badge that stays inside a narrow meter, a purchase's outcome brought
// into view, and a portal that tells its hosted page the page's font and retitles its dialog
// when the customer moves on to another task.

/** The cards of a picker, grouped by row (their top edge), in order. */
function rows(picker: PlanPicker): HTMLElement[][] {
  const cards = [...picker.shadowRoot!.querySelectorAll<HTMLElement>('[part~="offer"]')];
  const byTop = new Map<number, HTMLElement[]>();
  for (const card of cards) {
    const top = Math.round(card.getBoundingClientRect().top);
    byTop.set(top, [...(byTop.get(top) ?? []), card]);
  }
  return [...byTop.values()];
}

describe('layout on narrow hosts', () => {
  afterEach(() => closePortalDialogs());

  it('keeps the three plan cards in balanced rows at every width', async () => {
    // Three plans: the grid's (for healthy the business prepared a fourth).
    await freshStart('discounted');
    const host = await fixture<HTMLDivElement>(
      html`<div style="width: 1000px"><plan-picker></plan-picker></div>`,
    );
    const picker = host.querySelector('plan-picker')!;
    await waitUntil(() => part(picker, 'offer') !== null, 'plans shown', { timeout: 8000 });
    const shapes: Record<number, number[]> = {};
    // 560 px once put two cards on a row and the third alone beneath them.
    for (const width of [1000, 720, 560, 440, 300]) {
      host.style.width = `${width}px`;
      await picker.updateComplete;
      await new Promise(requestAnimationFrame);
      const found = rows(picker);
      shapes[width] = found.map((row) => row.length);
      for (const row of found) {
        const widths = row.map((card) => Math.round(card.getBoundingClientRect().width));
        expect(
          Math.max(...widths) - Math.min(...widths),
          `card widths at ${width}px`,
        ).to.be.at.most(1);
        for (const card of row)
          expect(card.getBoundingClientRect().right, `inside at ${width}px`).to.be.at.most(
            host.getBoundingClientRect().right + 0.5,
          );
      }
    }
    expect(shapes).to.deep.equal({
      1000: [3],
      720: [3],
      560: [1, 1, 1],
      440: [1, 1, 1],
      300: [1, 1, 1],
    });
  });

  it('puts four plan cards in a row only where each price fits, else two by two', async () => {
    // The grid's three plans and the Enterprise subscription prepared for healthy.
    await freshStart('healthy');
    const host = await fixture<HTMLDivElement>(
      html`<div style="width: 1200px"><plan-picker></plan-picker></div>`,
    );
    const picker = host.querySelector('plan-picker')!;
    await waitUntil(() => part(picker, 'prepared') !== null, 'plans shown', { timeout: 8000 });
    const shapes: Record<number, number[]> = {};
    for (const width of [1200, 1000, 560, 300]) {
      host.style.width = `${width}px`;
      await picker.updateComplete;
      await new Promise(requestAnimationFrame);
      const found = rows(picker);
      shapes[width] = found.map((row) => row.length);
      for (const card of found.flat()) {
        // The price stays on one line inside its card ("$499.00 / month").
        const price = card.querySelector('[part~="price"]')!;
        expect(price.scrollWidth, `price inside at ${width}px`).to.be.at.most(
          price.clientWidth + 1,
        );
        expect(card.getBoundingClientRect().right, `inside at ${width}px`).to.be.at.most(
          host.getBoundingClientRect().right + 0.5,
        );
      }
    }
    expect(shapes).to.deep.equal({ 1200: [4], 1000: [2, 2], 560: [2, 2], 300: [1, 1, 1, 1] });
  });

  it('keeps a long on/off badge inside a narrow meter', async () => {
    await freshStart('capping-reached');
    const host = await fixture<HTMLDivElement>(
      html`<div style="width: 270px">
        <usage-meter feature="sso" on-off label="Single sign-on"></usage-meter>
      </div>`,
    );
    const meter = host.querySelector<UsageMeter>('usage-meter')!;
    await waitUntil(() => part(meter, 'state') !== null, 'the badge', { timeout: 8000 });
    const badge = part(meter, 'state')!;
    expect(partText(meter, 'state')).to.equal('Included, paused while suspended');
    const right = host.getBoundingClientRect().right;
    expect(badge.getBoundingClientRect().right).to.be.at.most(right + 0.5);
    expect(meter.getBoundingClientRect().right).to.be.at.most(right + 0.5);
    // The label keeps its words on one line: the badge went under it, not beside it.
    const label = meter.shadowRoot!.querySelector<HTMLElement>('.label')!;
    expect(label.getBoundingClientRect().height).to.be.below(
      parseFloat(getComputedStyle(label).lineHeight) * 1.5,
    );
  });

  it('keeps a long add-on button inside a narrow host, in French too', async () => {
    await freshStart('healthy');
    const host = await fixture<HTMLDivElement>(
      html`<div style="width: 300px" lang="fr">
        <buy-feature feature="priority-support" label="Support prioritaire"></buy-feature>
      </div>`,
    );
    const buy = host.querySelector<BuyFeature>('buy-feature')!;
    // French loads on demand (English meanwhile): the button is measured once it says its French.
    await waitUntil(
      () =>
        part(buy, 'add') !== null &&
        partText(buy, 'add') === 'Ajouter l’option Support prioritaire',
      'the add button in French',
      { timeout: 8000 },
    );
    await buy.updateComplete;
    const right = host.getBoundingClientRect().right;
    expect(part(buy, 'add')!.getBoundingClientRect().right).to.be.at.most(right + 0.5);
  });

  it('brings the success line of a purchase into view', async () => {
    await freshStart('healthy');
    const host = await fixture<HTMLDivElement>(
      html`<div>
        <div style="height: ${innerHeight - 120}px"></div>
        <buy-feature feature="seats" label="seats" label-one="seat"></buy-feature>
        <div style="height: 400px"></div>
      </div>`,
    );
    const buy = host.querySelector<BuyFeature>('buy-feature')!;
    // Healthy uses 3 of 5 seats: one more is included, bought without a dialog.
    await waitForPrice(buy);
    part(buy, 'buy')!.click();
    // Every purchase is confirmed, a free one too.
    await waitUntil(() => part(buy, 'confirm') !== null, 'the confirmation dialog');
    part(buy, 'confirm')!.click();
    await waitUntil(() => part(buy, 'success') !== null, 'the success line', { timeout: 8000 });
    await until(
      () => part(buy, 'success')!.getBoundingClientRect().bottom <= innerHeight + 0.5,
      'the success line in view',
      3000,
    );
    expect(scrollY).to.be.above(0);
    window.scrollTo(0, 0);
  });

  it('hands the page’s font family to the hosted page', async () => {
    await freshStart('healthy');
    const host = await fixture<HTMLDivElement>(
      html`<div style="font-family: Georgia, 'Times New Roman', serif">
        <billing-portal page="home"></billing-portal>
      </div>`,
    );
    const portal = host.querySelector<BillingPortal>('billing-portal')!;
    await until(() => portal.container?.querySelector('iframe') != null, 'the portal frame', 8000);
    const font = new URL(portal.container!.querySelector('iframe')!.src).searchParams.get('font');
    expect(font).to.match(/^Georgia, "?Times New Roman"?, serif$/);
  });

  it('retitles the modal portal when the page inside moves on to another task', async () => {
    await freshStart('capping-reached');
    const pages: { title: string; opened: boolean }[] = [];
    document.addEventListener('service-portal:page', (event) =>
      pages.push((event as CustomEvent<{ title: string; opened: boolean }>).detail),
    );
    void openPortalPage({ page: 'pay-invoice' });
    await until(() => document.querySelector('body > billing-portal') !== null, 'the modal', 8000);
    const modal = document.querySelector<BillingPortal>('body > billing-portal')!;
    const title = () => partText(modal, 'dialog-title');
    await until(() => modal.container?.querySelector('iframe') != null, 'the frame', 8000);
    const frame = modal.container!.querySelector('iframe')!;
    await until(() => pages.length > 0, 'the charge page', 8000);
    expect(pages[0]).to.deep.equal({ title: 'Pay an invoice', opened: true });
    expect(title()).to.equal('Pay overdue invoices');
    // Another page of the same task (the charge page again, as the next invoice's is): the
    // title stays the task's.
    const charge = frame.src;
    frame.src = `${charge}${charge.includes('?') ? '&' : '?'}again=1`;
    await until(() => pages.length > 1, 'the charge page again', 8000);
    expect(pages[1]).to.deep.equal({ title: 'Pay an invoice', opened: false });
    await modal.updateComplete;
    expect(title()).to.equal('Pay overdue invoices');
    // The customer moves on to the restart (as the payment page's button does).
    const subscription = await serviceApi<{ Links: { rel: string; href?: string }[] }>(
      'Subscription?ReferenceCustomer=capping-reached',
    );
    const restart = subscription.Links.find((l) => l.rel === 'hosted-restart')!.href!;
    frame.src = restart;
    await until(() => title() === 'Restart your subscription', 'the restart title', 8000);
    expect(frame.title).to.match(/^Restart your subscription · /);
  });
});
