import { expect, fixture, html } from '@open-wc/testing';
import { emulateMedia, sendKeys } from '@web/test-runner-commands';
import '../../src/elements/billing-portal/define.js';
import type { BuyFeature } from '../../src/elements/buy-feature/buy-feature.js';
import { openPortalPage } from '../../src/elements/billing-portal/open.js';
import { freshStart, until } from '../browser/billing.js';
import { openConfirmation, part, pricedElement } from './buy-feature-helpers.js';
import { canEmulateMedia } from '../browser/engine.js';

// The elements take the host page's color scheme (not the operating
// system's alone), the host can force one, what they open follows them, and the focus ring is
// offset and contrasts at least 3:1 with the page, light and dark.

const LIGHT_ACCENT = 'rgb(79, 70, 229)';
const DARK_ACCENT = 'rgb(139, 135, 247)';

/** The channels of an `rgb()`/`rgba()` colour. */
function channels(color: string): number[] {
  return color
    .match(/[\d.]+/g)!
    .slice(0, 3)
    .map(Number);
}

/** WCAG relative luminance of an sRGB colour. */
function luminance(color: string): number {
  const [r, g, b] = channels(color).map((value) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

/**
 * Emulates an OS scheme; each call replaces every emulated feature, so motion stays reduced.
 * Chromium only (test/browser/engine.ts): the cases that need a dark OS run there; the others
 * run in every engine, whose OS scheme is light (the e2e smoke starts a dark one).
 */
const osScheme = (colorScheme: 'light' | 'dark') =>
  emulateMedia({ colorScheme, reducedMotion: 'reduce' });

/**
 * The Buy button's background once its colour transition (if any) has ended: only Chromium's
 * runner can ask for reduced motion, which turns the transitions off.
 */
async function buyBackground(element: Element): Promise<string> {
  const buy = part(element, 'buy')!;
  // getAnimations() brings the style up to date first, which starts a change's transition.
  await Promise.all(buy.getAnimations().map((animation) => animation.finished));
  return getComputedStyle(buy).backgroundColor;
}

/** The modal portal's dialog, opened at the end of the body. */
const modalDialog = () =>
  document.querySelector('body > billing-portal')!.shadowRoot!.querySelector('dialog')!;

describe('color scheme and focus', () => {
  beforeEach(async () => {
    // Colours are read right after a change: no transition in between.
    if (canEmulateMedia) await osScheme('light');
    await freshStart('healthy');
  });
  afterEach(async () => {
    if (canEmulateMedia)
      await emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' });
    document.documentElement.style.colorScheme = '';
    for (const portal of document.querySelectorAll('body > billing-portal')) portal.remove();
  });

  const withDarkOs = canEmulateMedia ? it : it.skip;

  withDarkOs('on a page that declares no scheme, a dark OS leaves the elements light', async () => {
    await osScheme('dark');
    const element = await pricedElement(html`<buy-feature feature="seats"></buy-feature>`);
    expect(await buyBackground(element)).to.equal(LIGHT_ACCENT);
    await expect(element).to.be.accessible();
  });

  withDarkOs('on a page that declares "light dark", they follow the OS', async () => {
    document.documentElement.style.colorScheme = 'light dark';
    await osScheme('dark');
    const element = await pricedElement(html`<buy-feature feature="seats"></buy-feature>`);
    expect(await buyBackground(element)).to.equal(DARK_ACCENT);
    await osScheme('light');
    expect(await buyBackground(element)).to.equal(LIGHT_ACCENT);
  });

  it('on a page that declares "dark", they are dark whatever the OS', async () => {
    document.documentElement.style.colorScheme = 'dark';
    const element = await pricedElement(html`<buy-feature feature="seats"></buy-feature>`);
    expect(await buyBackground(element)).to.equal(DARK_ACCENT);
    document.documentElement.style.colorScheme = 'light';
    expect(await buyBackground(element)).to.equal(LIGHT_ACCENT);
    await expect(element).to.be.accessible();
  });

  it('the theme attribute and --billing-color-scheme force a scheme', async () => {
    const wrapper = await fixture<HTMLElement>(
      html`<div>
        <buy-feature feature="seats" theme="dark"></buy-feature>
        <buy-feature feature="seats" style="--billing-color-scheme: dark"></buy-feature>
      </div>`,
    );
    const [byAttribute, byProperty] = wrapper.querySelectorAll('buy-feature');
    expect(await buyBackground(byAttribute!)).to.equal(DARK_ACCENT);
    expect(await buyBackground(byProperty!)).to.equal(DARK_ACCENT);
    // And light on a dark page.
    document.documentElement.style.colorScheme = 'dark';
    byAttribute!.setAttribute('theme', 'light');
    expect(await buyBackground(byAttribute!)).to.equal(LIGHT_ACCENT);
  });

  it('the confirmation dialog follows its element', async () => {
    const element = await pricedElement(
      html`<buy-feature feature="seats" quantity="4" theme="dark"></buy-feature>`,
    );
    await openConfirmation(element);
    const dialog = (element as BuyFeature).shadowRoot!.querySelector('dialog')!;
    expect(Math.max(...channels(getComputedStyle(dialog).backgroundColor))).to.be.below(64);
    await expect(element).to.be.accessible();
  });

  it('the backdrop dims a dark page as clearly as a light one', async () => {
    /** `color` seen through the dialog's backdrop (an rgba() over it). */
    const dimmed = (backdrop: string, color: string) => {
      const alpha = Number(backdrop.match(/[\d.]+/g)![3] ?? 1);
      const over = channels(backdrop);
      const mixed = channels(color).map((c, i) => Math.round(c * (1 - alpha) + over[i]! * alpha));
      return `rgb(${mixed.join(', ')})`;
    };
    const backdropOf = async (theme: 'light' | 'dark') => {
      const element = await pricedElement(
        html`<buy-feature feature="seats" quantity="4" theme=${theme}></buy-feature>`,
      );
      await openConfirmation(element);
      const dialog = element.shadowRoot!.querySelector('dialog')!;
      const backdrop = getComputedStyle(dialog, '::backdrop').backgroundColor;
      const surface = getComputedStyle(dialog).backgroundColor;
      dialog.close();
      element.remove();
      return { backdrop, surface };
    };
    // A light page: its white dimmed to a grey the white dialog stands out from (3:1 at least).
    const light = await backdropOf('light');
    expect(contrast(light.surface, dimmed(light.backdrop, 'rgb(255, 255, 255)'))).to.be.at.least(3);
    // A dark page: what stands out of it is its light text. Under the backdrop that text reads
    // as background (under 2.5:1 against the page), far below the dialog's own text.
    const dark = await backdropOf('dark');
    const pageText = dimmed(dark.backdrop, 'rgb(230, 230, 230)');
    const page = dimmed(dark.backdrop, 'rgb(18, 18, 24)');
    expect(contrast(pageText, page), `${dark.backdrop} over a dark page`).to.be.below(2.5);
    // And the dialog, dark itself, still stands apart from the dimmed page around it.
    expect(luminance(dark.surface)).to.be.above(luminance(page));
  });

  it('the modal portal and its hosted page follow what opened it, accent included', async () => {
    const opener = document.createElement('button');
    opener.textContent = 'Billing';
    opener.style.cssText = 'color-scheme: dark; --billing-accent: #aa3355';
    document.body.append(opener);
    try {
      await openPortalPage({ page: 'home' }, { from: opener });
      const dialog = modalDialog();
      expect(Math.max(...channels(getComputedStyle(dialog).backgroundColor))).to.be.below(64);
      const portal = document.querySelector('body > billing-portal')!;
      await until(() => portal.querySelector('iframe') !== null, 'the hosted page');
      const src = new URL(portal.querySelector('iframe')!.src);
      expect(src.searchParams.get('theme')).to.equal('dark');
      expect(src.searchParams.get('accent')).to.equal('#aa3355');
    } finally {
      opener.remove();
    }
  });

  withDarkOs('a light page gets light hosted pages, even under a dark OS', async () => {
    await osScheme('dark');
    await openPortalPage({ page: 'home' });
    const portal = document.querySelector('body > billing-portal')!;
    expect(Math.min(...channels(getComputedStyle(modalDialog()).backgroundColor))).to.be.above(192);
    await until(() => portal.querySelector('iframe') !== null, 'the hosted page');
    expect(new URL(portal.querySelector('iframe')!.src).searchParams.get('theme')).to.equal(
      'light',
    );
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`the focus ring is offset and contrasts 3:1 with a ${scheme} page`, async () => {
      const page = scheme === 'dark' ? 'rgb(18, 18, 18)' : 'rgb(255, 255, 255)';
      const wrapper = await fixture<HTMLElement>(
        html`<div style="background: ${page}; color-scheme: ${scheme}; padding: 16px">
          <buy-feature feature="seats"></buy-feature>
        </div>`,
      );
      const element = wrapper.querySelector('buy-feature')!;
      part<HTMLInputElement>(element, 'input')!.focus();
      await sendKeys({ press: 'Tab' });
      const buy = part(element, 'buy')!;
      expect(element.shadowRoot!.activeElement).to.equal(buy);
      const ring = getComputedStyle(buy);
      expect(ring.outlineStyle).to.equal('solid');
      expect(parseFloat(ring.outlineWidth)).to.be.at.least(2);
      expect(parseFloat(ring.outlineOffset)).to.be.at.least(2);
      expect(contrast(ring.outlineColor, page)).to.be.at.least(3);
      // The input's ring too.
      part<HTMLInputElement>(element, 'input')!.focus();
      const input = getComputedStyle(part(element, 'input')!);
      expect(input.outlineStyle).to.equal('solid');
      expect(contrast(input.outlineColor, page)).to.be.at.least(3);
    });
  }
});
