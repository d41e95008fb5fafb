import { expect, fixture, html } from '@open-wc/testing';
import { emulateMedia, sendKeys } from '@web/test-runner-commands';
import '../../src/elements/usage-meter/define.js';
import { UsageMeter } from '../../src/elements/usage-meter/usage-meter.js';
import { configureBilling } from '../../src/client/config.js';
import { loadLanguage, messageFor } from '../../src/client/i18n.js';
import { meterTexts } from '../../src/elements/usage-meter/messages.js';
import meterFrench from '../../src/elements/usage-meter/messages.fr.js';
import type {
  BillingErrorEvent,
  BillingRemedyEvent,
  BillingThresholdEvent,
} from '../../src/client/events.js';
import { getUsageStore } from '../../src/client/usage-store.js';
import {
  addFault,
  buyThroughProxy,
  freshStart,
  proxyRequestCount,
  serviceApi,
  signIn,
  until,
} from '../browser/billing.js';
import { canEmulateMedia } from '../browser/engine.js';

const loaded = (el: UsageMeter) =>
  until(() => el.shadowRoot!.querySelector('[aria-busy="true"]') === null, 'the meter to load');

const part = (el: UsageMeter, name: string) =>
  el.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);

const text = (node: Element | null | undefined) =>
  (node?.textContent ?? '').replace(/\s+/g, ' ').trim();

/** A purchase through the real proxy, as <buy-feature> makes it, merged into the page's store. */
async function buyOneSeat(): Promise<void> {
  await buyThroughProxy('seats', 1);
}

/** What the host's back end does when the customer uses the product: reports API calls. */
async function reportApiCalls(increment: number): Promise<void> {
  await serviceApi('Usage', {
    ReferenceCustomer: 'healthy',
    ReferenceFeature: 'api-calls',
    Increment: increment,
    DateStamp: new Date().toISOString(),
  });
}

describe('<usage-meter>', () => {
  beforeEach(() => freshStart('healthy'));
  afterEach(async () => {
    if (canEmulateMedia) await emulateMedia({ reducedMotion: 'no-preference' });
  });

  it('shows a limitation as a labelled meter with "3 of 5"-style figures', async () => {
    const el = await fixture<UsageMeter>(html`<usage-meter feature="seats"></usage-meter>`);
    await loaded(el);
    const meter = el.shadowRoot!.querySelector('[role="meter"]')!;
    expect(meter.getAttribute('aria-valuenow')).to.equal('3');
    expect(meter.getAttribute('aria-valuemin')).to.equal('0');
    expect(meter.getAttribute('aria-valuemax')).to.equal('5');
    expect(meter.getAttribute('aria-valuetext')).to.equal('3 of 5 Seats');
    expect(text(part(el, 'figures'))).to.equal('3 of 5');
    expect(text(part(el, 'label'))).to.equal('Seats');
    expect(part(el, 'fill')!.style.inlineSize).to.equal('60%');
    expect(el.level).to.equal('normal');
    await expect(el).to.be.accessible();
  });

  it('makes the figures the largest text, in tabular numerals', async () => {
    const el = await fixture<UsageMeter>(html`<usage-meter feature="seats"></usage-meter>`);
    await loaded(el);
    const value = getComputedStyle(part(el, 'value')!);
    const label = getComputedStyle(part(el, 'label')!);
    expect(parseFloat(value.fontSize)).to.be.greaterThan(parseFloat(label.fontSize) * 1.4);
    expect(getComputedStyle(part(el, 'figures')!).fontVariantNumeric).to.equal('tabular-nums');
  });

  it('shows a consumption with what is included and the reset date', async () => {
    const el = await fixture<UsageMeter>(html`<usage-meter feature="api-calls"></usage-meter>`);
    await loaded(el);
    expect(text(part(el, 'figures'))).to.equal('1,200 of 10,000');
    expect(text(part(el, 'detail'))).to.equal('Resets on December 1, 2026');
    expect(el.shadowRoot!.querySelector('[role="meter"]')!.getAttribute('aria-valuetext')).to.equal(
      '1,200 of 10,000 API calls',
    );
    await expect(el).to.be.accessible();
  });

  it('shows on/off features as included or not', async () => {
    const on = await fixture<UsageMeter>(html`<usage-meter feature="sso"></usage-meter>`);
    const off = await fixture<UsageMeter>(
      html`<usage-meter feature="priority-support"></usage-meter>`,
    );
    await loaded(on);
    await loaded(off);
    expect(text(part(on, 'label'))).to.equal('Single sign-on');
    expect(text(part(on, 'state'))).to.equal('Included');
    expect(part(on, 'state')!.hasAttribute('data-on')).to.equal(true);
    expect(text(part(off, 'state'))).to.equal('Not included');
    expect(part(off, 'state')!.hasAttribute('data-on')).to.equal(false);
    expect(on.shadowRoot!.querySelector('[role="meter"]')).to.equal(null);
    await expect(on).to.be.accessible();
    await expect(off).to.be.accessible();
  });

  it('shows unlimited access as such, without a meter', async () => {
    await freshStart('unlimited');
    const el = await fixture<UsageMeter>(html`<usage-meter feature="seats"></usage-meter>`);
    await loaded(el);
    expect(text(part(el, 'figures'))).to.equal('42 used Unlimited');
    expect(text(part(el, 'unlimited'))).to.equal('Unlimited');
    expect(el.shadowRoot!.querySelector('[role="meter"]')).to.equal(null);
    expect(part(el, 'figures')!.getAttribute('aria-label')).to.equal('42 Seats used, unlimited');
    await expect(el).to.be.accessible();
  });

  it('lists every feature of the plan without a feature attribute', async () => {
    const el = await fixture<UsageMeter>(html`<usage-meter></usage-meter>`);
    await loaded(el);
    const items = el.shadowRoot!.querySelectorAll('[part="item"]');
    expect(items.length).to.equal(5);
    expect([...el.shadowRoot!.querySelectorAll('[part="label"]')].map(text)).to.deep.equal([
      'Seats',
      'Projects',
      'API calls',
      'Single sign-on',
      'Priority support',
    ]);
    expect(el.shadowRoot!.querySelectorAll('[role="meter"]').length).to.equal(3);
    expect(part(el, 'list')!.getAttribute('aria-label')).to.equal('Plan usage');
    await expect(el).to.be.accessible();
  });

  it('invites to choose a plan in list mode when there is no subscription', async () => {
    await freshStart('no-subscription');
    const el = await fixture<UsageMeter>(html`<usage-meter></usage-meter>`);
    await loaded(el);
    expect(text(part(el, 'message'))).to.equal('Choose a plan to get started. See plans');
    await expect(el).to.be.accessible();
  });

  it('shows a skeleton of the final size while loading', async () => {
    await addFault({ route: 'GET /v1/Usages', mode: 'delay', delayMs: 1200 });
    const el = await fixture<UsageMeter>(html`<usage-meter feature="seats"></usage-meter>`);
    const busy = el.shadowRoot!.querySelector('[aria-busy="true"]');
    expect(busy).to.not.equal(null);
    expect(part(el, 'skeleton')).to.not.equal(null);
    await expect(el).to.be.accessible();
    const loadingHeight = el.getBoundingClientRect().height;
    await loaded(el);
    const readyHeight = el.getBoundingClientRect().height;
    expect(Math.abs(readyHeight - loadingHeight)).to.be.lessThan(4);
  });

  // The skeleton holds a consumption's reset-date row and an on/off feature's single line, so
  // the cards around a meter do not move when the usages arrive.
  it('keeps the same height from skeleton to loaded, for every kind of feature', async () => {
    await addFault({ route: 'GET /v1/Usages', mode: 'delay', delayMs: 1200 });
    const wrapper = await fixture<HTMLElement>(
      html`<div>
        <usage-meter feature="seats"></usage-meter>
        <usage-meter feature="api-calls"></usage-meter>
        <usage-meter feature="sso" on-off></usage-meter>
      </div>`,
    );
    const meters = [...wrapper.querySelectorAll<UsageMeter>('usage-meter')];
    for (const meter of meters) expect(part(meter, 'skeleton'), meter.feature).to.not.equal(null);
    const loading = meters.map((meter) => meter.getBoundingClientRect().height);
    for (const meter of meters) await loaded(meter);
    const ready = meters.map((meter) => meter.getBoundingClientRect().height);
    meters.forEach((meter, index) =>
      expect(ready[index], meter.feature).to.be.closeTo(loading[index]!, 1),
    );
    // The single meters are one height whatever their kind: side by side, they line up.
    expect(ready[0]).to.be.closeTo(ready[1]!, 1);
    await expect(wrapper).to.be.accessible();
  });

  it('shows an error with a retry that works from the keyboard', async () => {
    // The proxy retries idempotent reads twice: three failures make it give up.
    await addFault({ route: 'GET /v1/Usages', mode: 'status-500', times: 3 });
    const errors: Event[] = [];
    const el = await fixture<UsageMeter>(
      html`<usage-meter
        feature="seats"
        @billing-error=${(event: Event) => errors.push(event)}
      ></usage-meter>`,
    );
    await until(() => part(el, 'retry') !== null, 'the error state');
    const alert = el.shadowRoot!.querySelector('[role="alert"]')!;
    // The proxy's upstream-unavailable, worded as every element words it.
    expect((errors[0] as BillingErrorEvent).detail.code).to.equal('upstream-unavailable');
    // The service is down, not the customer's connection.
    expect(text(alert)).to.equal('Billing is unavailable right now. Please try again in a moment.');
    expect(errors.length).to.equal(1);
    await expect(el).to.be.accessible();

    part(el, 'retry')!.focus();
    await sendKeys({ press: 'Enter' });
    await loaded(el);
    await until(
      () => el.shadowRoot!.querySelector('[role="meter"]') !== null,
      'the meter after retry',
    );
    expect(text(part(el, 'figures'))).to.equal('3 of 5');
  });

  it('gives each button the button part and a part naming its role', async () => {
    const buttonParts = (el: UsageMeter) =>
      [...el.shadowRoot!.querySelectorAll('button')].map((button) => button.getAttribute('part'));
    await freshStart('starter-plan');
    const notInPlan = await fixture<UsageMeter>(html`<usage-meter feature="seats"></usage-meter>`);
    await loaded(notInPlan);
    expect(buttonParts(notInPlan)).to.deep.equal(['button remedy']);
    notInPlan.remove();

    await freshStart('healthy');
    // The proxy retries idempotent reads twice: three failures make it give up.
    await addFault({ route: 'GET /v1/Usages', mode: 'status-500', times: 3 });
    const failed = await fixture<UsageMeter>(html`<usage-meter feature="seats"></usage-meter>`);
    await until(() => part(failed, 'retry') !== null, 'the error state');
    expect(buttonParts(failed)).to.deep.equal(['button retry']);
  });

  it('offers the least expensive plan that includes a feature the plan lacks', async () => {
    await freshStart('starter-plan');
    const remedies: BillingRemedyEvent[] = [];
    const el = await fixture<UsageMeter>(html`
      <usage-meter
        feature="seats"
        label="Seats"
        @billing-remedy=${(event: BillingRemedyEvent) => {
          event.preventDefault();
          remedies.push(event);
        }}
      ></usage-meter>
    `);
    await loaded(el);
    // Pro is the least expensive plan that includes seats: named, and the switch goes there.
    expect(text(part(el, 'message'))).to.contain(
      'Seats: not included in your plan; included in Pro.',
    );
    const button = part(el, 'remedy')!;
    expect(text(button)).to.equal('Switch to Pro');
    await expect(el).to.be.accessible();
    button.focus();
    await sendKeys({ press: 'Enter' });
    expect(remedies.length).to.equal(1);
    expect(remedies[0]!.detail).to.deep.equal({
      page: 'change-plan',
      code: 'Error.Api.Usage.NoneMatching',
      feature: 'seats',
      offer: 'pro',
    });
    expect(remedies[0]!.defaultPrevented).to.equal(true);
  });

  it('changes its look past the warning and critical thresholds', async () => {
    // 1,200 of 10,000 API calls: 12% (a Consumption; a Limitation never warns, see the states).
    const warning = await fixture<UsageMeter>(
      html`<usage-meter feature="api-calls" warning-threshold="0.1"></usage-meter>`,
    );
    const critical = await fixture<UsageMeter>(
      html`<usage-meter feature="api-calls" critical-threshold="0.1"></usage-meter>`,
    );
    await loaded(warning);
    await loaded(critical);
    expect(warning.getAttribute('level')).to.equal('warning');
    expect(part(warning, 'meter')!.dataset.level).to.equal('warning');
    expect(text(part(warning, 'level'))).to.equal('12% used');
    expect(critical.getAttribute('level')).to.equal('critical');
    expect(text(part(critical, 'level'))).to.equal('Limit reached');
    const fill = (el: UsageMeter) => getComputedStyle(part(el, 'fill')!).backgroundColor;
    expect(fill(warning)).to.not.equal(fill(critical));
    await expect(warning).to.be.accessible();
    await expect(critical).to.be.accessible();
  });

  it('shows seats bought beyond the plan as extra, not as an overrun', async () => {
    const el = await fixture<UsageMeter>(html`<usage-meter feature="seats"></usage-meter>`);
    await loaded(el);
    // 3 of 5 included; buying 4 more makes 7: 2 of them beyond the plan, billed as extra.
    const { pricing } = await buyThroughProxy('seats', 4);
    expect(pricing.AmountTotal).to.be.greaterThan(0);
    await el.updateComplete;
    expect(text(part(el, 'figures'))).to.equal('7 · 5 included + 2 extra');
    expect(part(el, 'level')).to.equal(null);
    expect(part(el, 'meter')!.dataset.level).to.equal('extra');
    const meter = el.shadowRoot!.querySelector('[role="meter"]')!;
    expect(meter.getAttribute('aria-valuetext')).to.equal('7 Seats: 5 included, 2 extra');
    const live = el.shadowRoot!.querySelector('[role="status"]')!;
    expect(text(live)).to.equal('Seats: 2 extra beyond your plan.');
    // The normal look: the fill keeps the accent colour, not the critical one.
    const plain = await fixture<UsageMeter>(html`<usage-meter feature="projects"></usage-meter>`);
    await loaded(plain);
    const fill = (meterEl: UsageMeter) => getComputedStyle(part(meterEl, 'fill')!).backgroundColor;
    expect(fill(el)).to.equal(fill(plain));
    await expect(el).to.be.accessible();
  });

  it('announces a threshold crossing once, politely', async () => {
    const crossings: BillingThresholdEvent[] = [];
    const el = await fixture<UsageMeter>(
      html`<usage-meter
        feature="api-calls"
        warning-threshold="0.15"
        @billing-threshold=${(event: BillingThresholdEvent) => crossings.push(event)}
      ></usage-meter>`,
    );
    await loaded(el);
    const live = el.shadowRoot!.querySelector('[role="status"]')!;
    expect(text(live)).to.equal('');
    expect(crossings.length).to.equal(0);

    // The host's back end reports 400 calls: 1,600 of 10,000, past the warning at 15%.
    await reportApiCalls(400);
    await getUsageStore().refresh();
    await el.updateComplete;
    expect(text(part(el, 'figures'))).to.equal('1,600 of 10,000');
    expect(text(live)).to.equal('API calls: 16% used, close to the limit.');
    expect(crossings.map((event) => event.detail)).to.deep.equal([
      { feature: 'api-calls', level: 'warning', previousLevel: 'normal', ratio: 0.16 },
    ]);
    expect(crossings[0]).to.include({ bubbles: true, composed: true, cancelable: false });

    // Another update at the same level is no new crossing.
    el.requestUpdate();
    await el.updateComplete;
    expect(crossings.length).to.equal(1);
    await expect(el).to.be.accessible();
  });

  /** An API calls meter whose live region has just said its crossing of the 15% warning. */
  async function meterThatSaidItsCrossing(): Promise<{ el: UsageMeter; live: Element }> {
    const el = await fixture<UsageMeter>(
      html`<usage-meter feature="api-calls" warning-threshold="0.15"></usage-meter>`,
    );
    await loaded(el);
    const live = el.shadowRoot!.querySelector('[role="status"]')!;
    await reportApiCalls(400);
    await getUsageStore().refresh();
    await el.updateComplete;
    expect(text(live)).to.equal('API calls: 16% used, close to the limit.');
    return { el, live };
  }

  it('clears what it said once said, so that no stale figure stays for a screen reader', async function () {
    this.timeout(20_000);
    const { el, live } = await meterThatSaidItsCrossing();
    // The use goes on at the same level: the figures move, the crossing's 16% would be stale.
    await reportApiCalls(2_000);
    await getUsageStore().refresh();
    await el.updateComplete;
    expect(text(part(el, 'figures'))).to.equal('3,600 of 10,000');
    await until(() => text(live) === '', 'the announcement cleared', 8000);
  });

  it('takes what it said away when removed, so that a meter put back says nothing stale', async () => {
    const { el, live } = await meterThatSaidItsCrossing();
    // Moved elsewhere in the page at once: the words go with the removal, not seconds later.
    const parent = el.parentElement!;
    el.remove();
    parent.append(el);
    await el.updateComplete;
    expect(text(live)).to.equal('');
    expect(text(part(el, 'figures'))).to.equal('1,600 of 10,000');
  });

  it('never lowers its level as usage grows: seats stay calm, API calls only rise', async () => {
    // Seats are what the customer chose: 3, 4 (80%), 5 (all included) and 6 (one extra) of 5
    // all read in the normal look; a warning at 80% that went away at 100% would say that
    // using more is better.
    const seats = await fixture<UsageMeter>(html`<usage-meter feature="seats"></usage-meter>`);
    await loaded(seats);
    const seen: { figures: string; level: string; look: string | undefined }[] = [];
    const look = () => ({
      figures: text(part(seats, 'figures')),
      level: seats.level,
      look: part(seats, 'meter')!.dataset.level,
    });
    seen.push(look());
    for (let bought = 0; bought < 3; bought += 1) {
      await buyOneSeat();
      await seats.updateComplete;
      seen.push(look());
      expect(text(part(seats, 'level')), `the level text at ${seen.at(-1)!.figures}`).to.equal('');
    }
    expect(seen).to.deep.equal([
      { figures: '3 of 5', level: 'normal', look: 'normal' },
      { figures: '4 of 5', level: 'normal', look: 'normal' },
      { figures: '5 of 5', level: 'normal', look: 'normal' },
      { figures: '6 · 5 included + 1 extra', level: 'normal', look: 'extra' },
    ]);
    // A Consumption warns, then turns critical, and never steps back while more is used.
    const calls = await fixture<UsageMeter>(
      html`<usage-meter
        feature="api-calls"
        warning-threshold="0.15"
        critical-threshold="0.2"
      ></usage-meter>`,
    );
    await loaded(calls);
    const rank = { normal: 0, warning: 1, critical: 2 };
    const levels = [calls.level];
    for (const increment of [400, 500, 1000]) {
      await reportApiCalls(increment);
      await getUsageStore().refresh();
      await calls.updateComplete;
      levels.push(calls.level);
    }
    expect(levels).to.deep.equal(['normal', 'warning', 'critical', 'critical']);
    const ranks = levels.map((level) => rank[level]);
    expect(ranks).to.deep.equal([...ranks].sort((a, b) => a - b));
  });

  const fillDuration = (el: UsageMeter) =>
    getComputedStyle(part(el, 'fill')!).transitionDuration.split(',')[0];

  it('animates the fill briefly', async () => {
    const el = await fixture<UsageMeter>(html`<usage-meter feature="seats"></usage-meter>`);
    await loaded(el);
    expect(fillDuration(el)).to.equal('0.18s');
  });

  // Chromium only, as the next one: the other engines' automation cannot switch the
  // preference (engine.ts).
  (canEmulateMedia ? it : it.skip)('does not animate the fill under reduced motion', async () => {
    const el = await fixture<UsageMeter>(html`<usage-meter feature="seats"></usage-meter>`);
    await loaded(el);
    await emulateMedia({ reducedMotion: 'reduce' });
    expect(fillDuration(el)).to.equal('0s');
  });

  (canEmulateMedia ? it : it.skip)('keeps its colours on a dark page', async () => {
    const el = await fixture<UsageMeter>(html`<usage-meter feature="seats"></usage-meter>`);
    await loaded(el);
    const fill = () => getComputedStyle(part(el, 'fill')!).backgroundColor;
    const light = fill();
    // The page follows the system's scheme (the elements follow the page's).
    document.documentElement.style.colorScheme = 'light dark';
    await emulateMedia({ colorScheme: 'dark' });
    try {
      expect(matchMedia('(prefers-color-scheme: dark)').matches).to.equal(true);
      // The fill's colour transitions (180 ms) to the dark accent.
      await until(() => fill() !== light, 'the dark accent on the fill');
      expect(fill()).to.not.equal(light);
      await expect(el).to.be.accessible();
    } finally {
      await emulateMedia({ colorScheme: 'light' });
      document.documentElement.style.colorScheme = '';
    }
  });

  it('speaks French under a French lang, with Intl numbers and dates', async () => {
    const wrapper = await fixture<HTMLElement>(html`
      <div lang="fr-FR">
        <usage-meter feature="api-calls"></usage-meter>
        <usage-meter feature="sso"></usage-meter>
      </div>
    `);
    const [consumption, onOff] = [...wrapper.querySelectorAll('usage-meter')] as UsageMeter[];
    await loaded(consumption!);
    await loaded(onOff!);
    // French groups digits with a (narrow) no-break space; text() folds every space into one.
    expect(part(consumption!, 'figures')!.textContent).to.match(/1[\u00a0\u202f]200/);
    expect(text(part(consumption!, 'figures'))).to.equal('1 200 sur 10 000');
    expect(text(part(consumption!, 'detail'))).to.equal('Remise à zéro le 1er décembre 2026');
    expect(text(part(onOff!, 'state'))).to.equal('Inclus');
  });

  it('follows a change of language after it rendered, and stops following once removed', async () => {
    const wrapper = await fixture<HTMLElement>(html`
      <div lang="en"><usage-meter feature="api-calls"></usage-meter></div>
    `);
    const el = wrapper.querySelector('usage-meter')!;
    await loaded(el);
    expect(text(part(el, 'figures'))).to.equal('1,200 of 10,000');
    // The host app switches languages on the page's root, as a language menu does.
    const pageLang = document.documentElement.getAttribute('lang');
    document.documentElement.lang = 'fr';
    wrapper.removeAttribute('lang');
    try {
      await until(() => text(part(el, 'figures')) === '1 200 sur 10 000', 'the French figures');
      expect(text(part(el, 'detail'))).to.equal('Remise à zéro le 1er décembre 2026');
      wrapper.lang = 'en';
      await until(() => text(part(el, 'detail')) === 'Resets on December 1, 2026', 'English');
      // Removed, it renders nothing more until it is connected again. A meter still on the
      // page follows the same change: once it has, the removed one would have too.
      const witness = document.createElement('usage-meter') as UsageMeter;
      witness.setAttribute('feature', 'api-calls');
      wrapper.append(witness);
      await loaded(witness);
      el.remove();
      wrapper.lang = 'fr';
      await until(
        () => text(part(witness, 'detail')) === 'Remise à zéro le 1er décembre 2026',
        'the meter still on the page to speak French',
      );
      await witness.updateComplete;
      expect(el.isUpdatePending).to.equal(false);
      expect(text(part(el, 'detail'))).to.equal('Resets on December 1, 2026');
    } finally {
      if (pageLang === null) document.documentElement.removeAttribute('lang');
      else document.documentElement.lang = pageLang;
    }
  });

  it('registers each of its texts under its meter. key, in English and French', async () => {
    await loadLanguage('fr');
    for (const [key, en] of Object.entries(meterTexts) as [keyof typeof meterTexts, string][]) {
      expect(key).to.match(/^meter\./);
      expect(messageFor('en', key), key).to.equal(en);
      expect(messageFor('fr', key), key).to.equal(meterFrench[key]);
    }
  });

  it('takes its texts from configureBilling and from slots', async () => {
    configureBilling({ messages: { en: { 'meter.of': '{used} / {total}' } } });
    const el = await fixture<UsageMeter>(
      html`<usage-meter feature="seats"><span slot="label">Team seats</span></usage-meter>`,
    );
    await loaded(el);
    expect(text(part(el, 'figures'))).to.equal('3 / 5');
    const slot = part(el, 'label')!.querySelector('slot')!;
    expect(slot.assignedNodes().map((node) => node.textContent)).to.deep.equal(['Team seats']);
    await expect(el).to.be.accessible();
  });

  it('leaves the store of an endpoint set while it was out of the document once removed again', async () => {
    const el = await fixture<UsageMeter>(html`<usage-meter feature="seats"></usage-meter>`);
    await loaded(el);
    const seats = el.usage!;
    const parent = el.parentElement!;
    el.remove();
    el.endpoint = '/elsewhere';
    await el.updateComplete;
    parent.append(el);
    await el.updateComplete;
    el.remove();
    await el.updateComplete;
    // A change in that store reaches no meter: nothing is subscribed any more.
    getUsageStore('/elsewhere').applyUsage({ ...seats, QuantityCurrent: 4 });
    expect(el.isUpdatePending).to.equal(false);
  });

  it('renders text from the service as text', async () => {
    const el = await fixture<UsageMeter>(html`<usage-meter feature="seats"></usage-meter>`);
    await loaded(el);
    getUsageStore().applyUsage({
      IdSubscription: 1001,
      ReferenceFeature: 'seats',
      TypeFeature: 'Limitation',
      QuantityIncluded: 5,
      QuantityCurrent: 3,
      TitleLocalized: '<img src=x onerror="window.__pwned=1">Seats',
    });
    await el.updateComplete;
    expect(part(el, 'label')!.querySelector('img')).to.equal(null);
    expect(text(part(el, 'label'))).to.equal('<img src=x onerror="window.__pwned=1">Seats');
  });

  it('can be defined twice under the same tag without throwing', () => {
    expect(() => UsageMeter.define()).to.not.throw();
    expect(customElements.get('usage-meter')).to.equal(UsageMeter);
    // Another copy of the library (the script-tag file next to the npm build) keeps the tag.
    class Other extends HTMLElement {}
    customElements.define('other-meter', Other);
    expect(() => UsageMeter.define('other-meter')).to.not.throw();
    expect(customElements.get('other-meter')).to.equal(Other);
  });

  it("shows the next customer's usages after the store is cleared", async () => {
    const el = await fixture<UsageMeter>(html`<usage-meter feature="seats"></usage-meter>`);
    await loaded(el);
    expect(text(part(el, 'figures'))).to.equal('3 of 5');
    signIn('unlimited');
    getUsageStore().clear();
    await until(() => text(part(el, 'figures')) === '42 used Unlimited', 'the next customer');
  });

  it('makes one request to the proxy for any number of meters', async () => {
    await fixture(html`
      <div>
        <usage-meter feature="seats"></usage-meter>
        <usage-meter feature="projects"></usage-meter>
        <usage-meter feature="api-calls"></usage-meter>
        <usage-meter feature="sso"></usage-meter>
        <usage-meter></usage-meter>
      </div>
    `);
    const meters = [...document.querySelectorAll('usage-meter')] as UsageMeter[];
    for (const meter of meters) await loaded(meter);
    expect(await proxyRequestCount('GET', '/billing/usages')).to.equal(1);
  });
});
