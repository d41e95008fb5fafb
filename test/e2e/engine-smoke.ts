// The smoke path of the demo in one browser engine other than Chromium (smoke-firefox.test.ts,
// smoke-webkit.test.ts): sign in and read the meters, a purchase confirmed in its dialog and
// applied once, a refusal and its remedy through the portal's dialog, the embedded portal, and
// the script-tag page. The Chromium files (dashboard, remedies, script-tag) test the same and
// more, with axe; this checks that what a customer does works in Firefox and WebKit.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CHARGED,
  demoWithBrowserForFile,
  FREE,
  quantityOf,
  sandboxCustomer,
  usd,
  type E2E,
} from './helpers.js';
import {
  launchEngine,
  type ElementFacts,
  type EngineBrowser,
  type EnginePage,
  pathText,
  type Path,
  type Preferences,
  type SmokeEngine,
} from './engines.js';

import { waitFor as waitForCondition } from '../time.js';

const TIMEOUT_MS = 15_000;

/** Resolves with `check`'s first truthy answer, polling; fails with `what` after the timeout. */
function waitFor<T>(
  check: () => Promise<T | null | undefined | false>,
  what: string,
  timeoutMs = TIMEOUT_MS,
): Promise<T> {
  return waitForCondition(check, what, timeoutMs) as Promise<T>;
}

/** Waits until the element at `path` exists and `accept` holds for it; resolves with its facts. */
function waitForElement(
  page: EnginePage,
  path: Path,
  what: string,
  accept: (facts: ElementFacts) => boolean = () => true,
): Promise<ElementFacts> {
  return waitFor(async () => {
    const facts = await page.facts(path);
    return facts && accept(facts) ? facts : null;
  }, what);
}

function waitForText(page: EnginePage, path: Path, text: string | RegExp): Promise<ElementFacts> {
  const matches = (facts: ElementFacts) =>
    typeof text === 'string' ? facts.text.includes(text) : text.test(facts.text);
  return waitForElement(page, path, `"${String(text)}" in ${pathText(path)}`, matches);
}

/** The least height the portal script gives its frame (src/sandbox/portal/script.ts). */
const FRAME_MIN_HEIGHT = 200;

/**
 * Waits for `text` in the element at `path` of the page in the iframe at `frame`, and for the
 * frame to have taken that page's height: the portal sizes its frame to each hosted page once
 * the page shows, which moves what is around the frame (the modal dialog is centred on it), and
 * a person looks for the page's buttons once they stop moving. The iframe is looked for again at
 * every try: the portal may not have made it yet, or may replace it.
 */
function waitForTextInFrame(
  page: EnginePage,
  frame: Path,
  path: Path,
  text: string,
): Promise<ElementFacts> {
  return waitFor(
    async () => {
      const shown = await page.inFrame(frame, async () => ({
        facts: await page.facts(path),
        height: await page.evaluate(() => Math.ceil(document.body.getBoundingClientRect().height)),
      }));
      if (!shown.facts?.text.includes(text)) return null;
      const frameHeight = (await page.facts(frame))?.height;
      return frameHeight === Math.max(FRAME_MIN_HEIGHT, shown.height) ? shown.facts : null;
    },
    `"${text}" in ${pathText(path)} of the frame ${pathText(frame)}, the frame fitting its page`,
  );
}

const meter = (feature: string, part: string): Path => [
  `usage-meter[feature="${feature}"]`,
  `[part~="${part}"]`,
];
const buyPart = (feature: string, part: string): Path => [
  `buy-feature[feature="${feature}"]`,
  `[part~="${part}"]`,
];
/** The portal the elements open in a dialog when the page has none: at the end of the body. */
const PORTAL_DIALOG: Path = ['body > billing-portal', 'dialog'];

/** Confirms the purchase dialog of the buy control of `feature` once it is open. */
async function confirmInDialog(page: EnginePage, feature: string): Promise<void> {
  await waitForElement(page, buyPart(feature, 'dialog'), 'the confirmation dialog', (facts) => {
    return facts.open === true;
  });
  await page.click(buyPart(feature, 'confirm'));
}

async function signIn(page: EnginePage, e2e: E2E<EngineBrowser>, customer: string): Promise<void> {
  await page.goto(`${e2e.demo.url}/`);
  await page.click([`button.account[value="${customer}"]`]);
  await waitFor(
    async () => (await page.url()) === `${e2e.demo.url}/app/`,
    `the dashboard of ${customer}`,
  );
}

/** Types `quantity` into the feature's field and waits for a price that matches `price`. */
async function priceQuantity(
  page: EnginePage,
  feature: string,
  quantity: number,
  price: RegExp,
): Promise<string> {
  await page.type(buyPart(feature, 'input'), String(quantity));
  const shown = await waitForText(page, buyPart(feature, 'price-now'), price);
  return shown.text;
}

interface Looks {
  /** What the page's media queries see. */
  dark: boolean;
  reducedMotion: boolean;
  /** The projects meter's fill: its colour, and its first transition's duration. */
  fill: string;
  fillDuration: string;
}

/** How the dashboard of the Starter plan's customer looks (its projects meter has a fill). */
function looks(page: EnginePage): Promise<Looks> {
  return page.evaluate(() => {
    const fill = document
      .querySelector('usage-meter[feature="projects"]')
      ?.shadowRoot?.querySelector('[part~="fill"]');
    if (!fill) throw new Error('no fill in the projects meter');
    const style = getComputedStyle(fill);
    return {
      dark: matchMedia('(prefers-color-scheme: dark)').matches,
      reducedMotion: matchMedia('(prefers-reduced-motion: reduce)').matches,
      fill: style.backgroundColor,
      fillDuration: style.transitionDuration.split(',')[0]!.trim(),
    };
  });
}

/** The red, green and blue channels of a computed colour (`rgb(…)`, `rgba(…)`). */
function channels(colour: string): number[] {
  return (colour.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
}

export function engineSmoke(engine: SmokeEngine): void {
  const e2e = demoWithBrowserForFile(() => launchEngine(engine));

  /**
   * A fresh page for one test, closed after it whatever happens; a failing test leaves a
   * screenshot of where it stopped, `<engine>-failed-<name>.png`.
   */
  async function withPage(name: string, steps: (page: EnginePage) => Promise<void>): Promise<void> {
    const page = await e2e.browser.newPage();
    try {
      await steps(page);
      assert.deepEqual(await page.errors(), [], 'uncaught errors in the page');
    } catch (error) {
      await page.screenshot(`failed-${name}`).catch(() => undefined);
      throw error;
    } finally {
      await page.close();
    }
  }

  test(`${engine}: signing in shows the customer's meters and a live price`, () =>
    withPage('sign-in', async (page) => {
      await signIn(page, e2e, 'healthy');
      await waitForText(page, meter('seats', 'value'), '3');
      assert.equal((await page.facts(meter('seats', 'total')))?.text, '5');
      assert.equal((await page.facts(meter('projects', 'value')))?.text, '4');
      await waitForText(page, meter('api-calls', 'value'), '1,200');
      assert.equal((await page.facts(meter('api-calls', 'total')))?.text, '10,000');
      await waitForText(page, meter('sso', 'state'), 'Included');
      // Priority support is sold apart on Pro: the card offers it as an add-on.
      await waitForText(page, buyPart('priority-support', 'add'), 'Add Priority support');
      // The default quantity is priced before anything is bought.
      await waitForText(page, buyPart('seats', 'price-now'), /\$\d/);
      await page.screenshot('dashboard');
    }));

  test(`${engine}: a purchase is confirmed in its dialog and applied once`, () =>
    withPage('purchase', async (page) => {
      await signIn(page, e2e, 'healthy');
      const before = await sandboxCustomer(e2e.demo, 'healthy');
      assert.equal(quantityOf(before, 'seats'), 3);

      // Three more seats: one beyond the five of the plan, so a price to confirm.
      await waitForText(page, meter('seats', 'value'), '3');
      await priceQuantity(page, 'seats', 3, CHARGED);
      const previewed = (await page.facts([...buyPart('seats', 'price-now'), 'dd']))?.text ?? '';
      assert.match(previewed, /^\$\d+\.\d\d$/);
      await page.click(buyPart('seats', 'buy'));

      const dialog = await waitForElement(
        page,
        buyPart('seats', 'dialog'),
        'the confirmation dialog',
        (facts) => facts.open === true,
      );
      assert.equal(dialog.modal, true, 'the dialog is modal');
      assert.match(dialog.text, /Confirm your purchase/);
      assert.equal((await page.facts(buyPart('seats', 'amount')))?.text, previewed);
      // The focus is on the choice that spends nothing.
      await waitForElement(page, buyPart('seats', 'cancel'), 'the focus on Cancel', (facts) => {
        return facts.focused;
      });
      await page.screenshot('purchase-confirm');
      assert.equal(quantityOf(await sandboxCustomer(e2e.demo, 'healthy'), 'seats'), 3);

      await page.click(buyPart('seats', 'confirm'));
      await waitForText(page, buyPart('seats', 'success'), 'Done. You now have 6 seats.');
      await waitForElement(page, buyPart('seats', 'dialog'), 'the dialog to close', (facts) => {
        return facts.open === false;
      });
      await waitForText(page, meter('seats', 'value'), '6');
      await page.screenshot('purchase-done');

      const after = await sandboxCustomer(e2e.demo, 'healthy');
      assert.equal(quantityOf(after, 'seats'), 6);
      const issued = after.invoices.slice(before.invoices.length);
      assert.equal(issued.length, 1, 'one invoice for the purchase');
      assert.equal(usd(issued[0]!.AmountTotal), previewed, 'the invoice is the confirmed price');
      const seats = after.usageLog.filter((entry) => entry.feature === 'seats');
      assert.deepEqual(
        seats.map((entry) => entry.increment),
        [3],
        'applied once',
      );
    }));

  test(`${engine}: a refusal offers its remedy, and after it the purchase goes through`, () =>
    withPage('remedy', async (page) => {
      // Seats are not in the Starter plan: the page offers a change of plan once, from its
      // first element (the seats meter), to Pro, the least expensive plan that includes them.
      await signIn(page, e2e, 'starter-plan');
      const remedy = [...meter('seats', 'message'), { css: 'button', text: 'Switch to Pro' }];
      await waitForElement(page, remedy, 'the change-plan remedy');
      await page.screenshot('refusal');
      await page.click(remedy);

      const portal = await waitForElement(page, PORTAL_DIALOG, 'the portal dialog', (facts) => {
        return facts.open === true;
      });
      assert.equal(portal.modal, true, 'the portal dialog is modal');
      // The hosted page, from the billing service's origin, in the portal's iframe.
      const frame: Path = ['body > billing-portal iframe'];
      await waitForTextInFrame(page, frame, ['h1'], 'Change plan');
      await page.inFrame(frame, () => page.click([{ css: 'button', text: 'Switch Pro' }]));
      // A paid switch is confirmed at its price first.
      await waitForTextInFrame(page, frame, ['h1'], 'Confirm the change');
      await page.inFrame(frame, () => page.click([{ css: 'button', text: 'Confirm and pay $' }]));
      await waitForTextInFrame(page, frame, ['body'], 'Your plan has been changed.');
      await page.screenshot('remedy');
      // The workflow is complete: the dialog offers Done in place of Close.
      await page.click([...PORTAL_DIALOG, { css: 'button', text: 'Done' }]);
      await waitFor(
        async () => (await page.facts(['body > billing-portal'])) === null,
        'the portal dialog to leave the page',
      );

      // On Pro, seats are in the plan: two fit in it, at no charge, confirmed all the same.
      await waitForText(page, ['[data-plan]'], 'Pro · Active');
      await waitForText(page, meter('seats', 'total'), '5');
      await priceQuantity(page, 'seats', 2, FREE);
      await page.click(buyPart('seats', 'buy'));
      await confirmInDialog(page, 'seats');
      await waitForText(page, buyPart('seats', 'success'), 'Done. You now have 2 seats.');
      const customer = await sandboxCustomer(e2e.demo, 'starter-plan');
      assert.equal(customer.subscriptions[0]?.ReferenceOffer, 'pro');
      assert.equal(quantityOf(customer, 'seats'), 2);
    }));

  test(`${engine}: the customer portal page embeds the portal, its workflows in place`, () =>
    withPage('portal', async (page) => {
      await signIn(page, e2e, 'healthy');
      await page.goto(`${e2e.demo.url}/app/portal`);
      const frame: Path = ['billing-portal iframe'];
      await waitForTextInFrame(page, frame, ['h1'], 'Your subscription');
      await page.screenshot('portal');

      // The portal's own link, in its frame: the workflow opens there.
      await page.inFrame(frame, () => page.click([{ css: '.actions a', text: 'Payment method' }]));
      await waitForTextInFrame(page, frame, ['h1'], 'Contact details and payment method');
      // The page around the embedded portal keeps to the window's width.
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      assert.ok(overflow <= 0, `the portal page is ${String(overflow)}px wider than the window`);
    }));

  test(`${engine}: the script-tag page runs on the one file`, () =>
    withPage('script-tag', async (page) => {
      await signIn(page, e2e, 'healthy');
      await page.goto(`${e2e.demo.url}/site/`);
      await waitFor(
        () => page.evaluate(() => Boolean(customElements.get('billing-portal'))),
        'the elements to be defined',
      );
      // Without `feature`, the meter lists the whole plan.
      const items = () =>
        page.evaluate(
          () =>
            document.querySelector('usage-meter')?.shadowRoot?.querySelectorAll('[part~="item"]')
              .length ?? 0,
        );
      await waitFor(async () => (await items()) === 5, 'the five features of the plan');
      await waitForTextInFrame(page, ['billing-portal iframe'], ['h1'], 'Your subscription');
      await page.screenshot('script-tag-page');

      // One more project (4 of 10 used) costs nothing, and is confirmed like any purchase.
      await waitForText(page, buyPart('projects', 'price-now'), FREE);
      await page.click(buyPart('projects', 'buy'));
      await confirmInDialog(page, 'projects');
      await waitForText(page, buyPart('projects', 'success'), 'Done. You now have 5 projects.');
      assert.equal(quantityOf(await sandboxCustomer(e2e.demo, 'healthy'), 'projects'), 5);
    }));

  test(`${engine}: the elements follow the system's dark and reduced-motion preferences`, async () => {
    // The browser tests switch these preferences in Chromium only (test/browser/engine.ts):
    // here a browser starts with them, and the same page is compared with the file's browser.
    let light: Looks | undefined;
    await withPage('preferences-default', async (page) => {
      await signIn(page, e2e, 'starter-plan');
      await waitForText(page, meter('projects', 'value'), '2');
      light = await looks(page);
    });
    assert.deepEqual(
      { dark: light?.dark, reducedMotion: light?.reducedMotion, duration: light?.fillDuration },
      { dark: false, reducedMotion: false, duration: '0.18s' },
    );

    const preferences: Preferences = { dark: true, reducedMotion: true };
    const browser = await launchEngine(engine, preferences);
    const page = await browser.newPage();
    try {
      await signIn(page, e2e, 'starter-plan');
      await waitForText(page, meter('projects', 'value'), '2');
      const dark = await looks(page);
      assert.equal(dark.dark, true, 'the page sees the dark preference');
      assert.equal(dark.reducedMotion, true, 'the page sees the reduced-motion preference');
      assert.equal(dark.fillDuration, '0s', 'no transition under reduced motion');
      assert.notEqual(dark.fill, light!.fill, 'the meter takes its dark accent');

      // The modal portal of a remedy, on a page that declares no colour scheme of its own for
      // the dialog: the dark system colours (Canvas, CanvasText) under `color-scheme: light dark`.
      // The seats meter renders its refusal on its own: the projects figure does not wait for it.
      await waitForElement(page, meter('seats', 'remedy'), "the seats meter's remedy");
      await page.click(meter('seats', 'remedy'));
      await waitForElement(page, PORTAL_DIALOG, 'the portal dialog', (facts) => {
        return facts.open === true;
      });
      const dialog = await page.evaluate(() => {
        const element = document
          .querySelector('body > billing-portal')
          ?.shadowRoot?.querySelector('dialog');
        const style = element ? getComputedStyle(element) : null;
        return { background: style?.backgroundColor ?? '', text: style?.color ?? '' };
      });
      assert.ok(Math.max(...channels(dialog.background)) < 64, `dark dialog: ${dialog.background}`);
      assert.ok(Math.min(...channels(dialog.text)) > 192, `light text: ${dialog.text}`);
      await page.screenshot('dark-reduced-motion');
      assert.deepEqual(await page.errors(), [], 'uncaught errors in the page');
    } finally {
      await page.close();
      await browser.close();
    }
  });
}
