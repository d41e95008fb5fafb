// Screenshots of every state of <buy-feature>, <billing-portal> and the hosted pages it shows,
// in each of the eight variants a reviewer looks at: light and dark, 1280 and 360 px wide,
// English and French. Each variant starts from a reset sandbox and a fresh browser context;
// each state is saved alone and then gathered with its seven siblings on one contact sheet.
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { newPage, resetSandbox, SCREENSHOT_DIR, signIn, type E2E } from './helpers.js';

export type Scheme = 'light' | 'dark';
export type Lang = 'en' | 'fr';

export interface Variant {
  scheme: Scheme;
  width: 1280 | 360;
  lang: Lang;
}

/** The eight variants, in the order of the contact sheet's rows and columns. */
const ALL_VARIANTS: readonly Variant[] = (['light', 'dark'] as const).flatMap((scheme) =>
  (['en', 'fr'] as const).flatMap((lang) =>
    ([1280, 360] as const).map((width) => ({ scheme, width, lang })),
  ),
);

/**
 * The variants of this run: all eight with STATES_VARIANTS=all (a review), else two opposite
 * corners (light, wide, English; dark, narrow, French), which keep `npm test` short.
 */
export const VARIANTS: readonly Variant[] =
  process.env.STATES_VARIANTS === 'all'
    ? ALL_VARIANTS
    : ALL_VARIANTS.filter(
        (variant) =>
          (variant.scheme === 'light' && variant.width === 1280 && variant.lang === 'en') ||
          (variant.scheme === 'dark' && variant.width === 360 && variant.lang === 'fr'),
      );

/** `before` or `after` a change (STATES_LABEL), so that both sets sit side by side. */
export const STATES_LABEL = process.env.STATES_LABEL ?? 'after';
export const STATES_DIR = join(SCREENSHOT_DIR, 'states', STATES_LABEL);

const variantName = ({ scheme, width, lang }: Variant) => `${scheme}-${width}-${lang}`;

/** Whether a scenario runs: all of them, or those named in STATES_ONLY (comma-separated). */
export function wanted(scenario: string): boolean {
  const only = process.env.STATES_ONLY;
  return !only || only.split(',').includes(scenario);
}

/**
 * Waits for what a language change or an answer started to settle: no price being asked, no
 * portal still loading. A typed quantity shows its price as busy at once (the element renders
 * before the next command reaches the page), so no time is waited for it to start.
 */
export async function settle(page: Page): Promise<void> {
  await page
    .locator('buy-feature [part~="price"][aria-busy="true"], billing-portal [part~="status"]')
    .first()
    .waitFor({ state: 'detached', timeout: 8000 });
}

/**
 * Waits until `frame` keeps its height between two animation frames: a portal's frame follows
 * its hosted page's height, which it learns by message once the page has laid out.
 */
export async function frameSettled(frame: Locator): Promise<void> {
  await frame.evaluate(async (element) => {
    let last = -1;
    let steady = 0;
    // At most 5 s: a frame that never takes a height (hidden while the portal changes page)
    // must not hold the test forever, nor a page that draws no frame.
    const given = AbortSignal.timeout(5_000);
    while (steady < 3 && !given.aborted) {
      await new Promise((resolve) => {
        requestAnimationFrame(resolve);
        given.addEventListener('abort', resolve, { once: true });
      });
      const height = element.getBoundingClientRect().height;
      steady = height === last && height > 0 ? steady + 1 : 0;
      last = height;
    }
  });
}

/** axe's WCAG 2 A and AA violations of the page (hosted iframes included), one line each. */
export async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  return results.violations.flatMap((violation) =>
    violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')}`),
  );
}

/** The states this process saved: its file's contact sheets gather these. */
const saved = new Set<string>();

/** What axe found in each state of this run (a state absent: none). */
export const violations = new Map<string, string[]>();

/** The text `target` shows, its elements' shadow roots included (not their styles). */
function deepText(target: Locator): Promise<string> {
  // No named function inside: the test's TypeScript build would wrap it in a helper the page
  // does not have.
  return target.evaluate((root) => {
    const parts: string[] = [];
    const stack: Node[] = [root];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (node instanceof HTMLStyleElement || node instanceof HTMLScriptElement) continue;
      if (node.nodeType === Node.TEXT_NODE) parts.push(node.textContent ?? '');
      if (node instanceof Element && node.shadowRoot) stack.push(node.shadowRoot);
      stack.push(...[...node.childNodes].reverse());
    }
    return parts.join(' ');
  });
}

/**
 * Checks and saves one state of one variant. What it looks at must be there: `target` visible
 * and saying something (its text, or an accessible name), nothing of the page wider than the
 * window (at 360 px, nor wider than `target`), and, when `says` is given, `target` says it. axe
 * checks the page in that state, its findings kept in `violations`. Then `target` alone, or the
 * viewport when it is the page, is saved for the contact sheets.
 */
export async function capture(
  page: Page,
  variant: Variant,
  state: string,
  target: Locator | 'viewport',
  says?: RegExp,
): Promise<void> {
  await settle(page);
  const where = `${state} (${variantName(variant)})`;
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  assert.ok(overflow <= 0, `${where}: the page is ${overflow}px wider than the window`);
  if (target !== 'viewport') {
    assert.ok(await target.isVisible(), `${where}: nothing to see`);
    let text = (await deepText(target)).trim();
    // A portal says what its hosted page (a frame) says: its heading.
    if (!text && (await target.locator('iframe').count()) > 0)
      text = (
        (await target.frameLocator('iframe').locator('h1').first().textContent()) ?? ''
      ).trim();
    assert.ok(text.length > 0, `${where}: it says nothing`);
    if (says) assert.match(text.replace(/\s+/g, ' '), says, `${where}: not what it should say`);
    if (variant.width === 360) {
      const box = await target.boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= 361, `${where}: it overflows 360 px`);
    }
  } else if (says) {
    const text = (await deepText(page.locator('body'))).replace(/\s+/g, ' ');
    assert.match(text, says, `${where}: not what it should say`);
  }
  const found = await axeViolations(page);
  if (found.length > 0) violations.set(where, found);
  saved.add(state);
  const dir = join(STATES_DIR, state);
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${variantName(variant)}.png`);
  if (target === 'viewport') await page.screenshot({ path, animations: 'disabled' });
  else await target.screenshot({ path, animations: 'disabled' });
}

/** Fails the test on any axe finding of this run (a "before" set only reports them). */
export function checkAxe(): void {
  if (violations.size === 0) return;
  const report = [...violations].map(([state, found]) => `${state}:\n  ${found.join('\n  ')}`);
  violations.clear();
  if (STATES_LABEL === 'before') console.log(`axe findings (before):\n${report.join('\n')}`);
  else assert.fail(`axe found violations:\n${report.join('\n')}`);
}

/** A fresh context for the variant, the customer signed in, the page in the variant's language. */
export async function openVariant(e2e: E2E, variant: Variant, customer: string): Promise<Page> {
  await resetSandbox(e2e.demo);
  const phone = variant.width === 360;
  const page = await newPage(e2e, {
    colorScheme: variant.scheme,
    viewport: { width: variant.width, height: phone ? 780 : 900 },
    ...(phone ? { isMobile: true, hasTouch: true } : {}),
  });
  await signIn(page, e2e.demo, customer);
  await setLang(page, variant.lang);
  return page;
}

/** Switches the page's language, as a host app does (the elements follow `lang`). */
export async function setLang(page: Page, lang: Lang): Promise<void> {
  await page.evaluate((value) => {
    document.documentElement.lang = value;
  }, lang);
}

/** Runs `drive` once per variant (each in its own context) and closes the page after it. */
export async function eachVariant(
  e2e: E2E,
  customer: string,
  drive: (page: Page, variant: Variant) => Promise<void>,
): Promise<void> {
  for (const variant of VARIANTS) {
    const page = await openVariant(e2e, variant, customer);
    try {
      await drive(page, variant);
    } finally {
      await page.context().close();
    }
  }
}

/**
 * One contact sheet per state this process saved under `states/<label>/`: the
 * variants in rows (scheme and language) and columns (1280 and 360 px), each labelled, at
 * `states/<label>/<state>.png`.
 */
export async function writeContactSheets(
  browser: Browser,
  label = STATES_LABEL,
): Promise<string[]> {
  const root = join(SCREENSHOT_DIR, 'states', label);
  const states = (await readdir(root, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .filter((state) => saved.has(state))
    .sort();
  const written: string[] = [];
  const context = await browser.newContext({ viewport: { width: 1480, height: 800 } });
  const page = await context.newPage();
  try {
    for (const state of states) {
      const cells: string[] = [];
      for (const variant of ALL_VARIANTS) {
        const path = join(root, state, `${variantName(variant)}.png`);
        const image = await readFile(path).then(
          (png) =>
            `<img src="data:image/png;base64,${png.toString('base64')}" class="w${variant.width}">`,
          () => '<p>not captured</p>',
        );
        cells.push(`<figure><figcaption>${variantName(variant)}</figcaption>${image}</figure>`);
      }
      await page.setContent(`<!doctype html><style>
        body { margin: 0; padding: 12px; font: 13px system-ui; background: #888; }
        h1 { font-size: 15px; margin: 0 0 8px; }
        main { display: grid; grid-template-columns: 1040px 380px; gap: 10px; align-items: start; }
        figure { margin: 0; background: #fff; padding: 4px; }
        figcaption { font-weight: 600; margin-bottom: 4px; }
        img { display: block; max-width: 100%; }
        .w360 { width: 360px; }
      </style><h1>${label}: ${state}</h1><main>${cells.join('')}</main>`);
      const sheet = join(root, `${state}.png`);
      await page.screenshot({ path: sheet, fullPage: true });
      written.push(sheet);
    }
  } finally {
    await context.close();
  }
  return written;
}
