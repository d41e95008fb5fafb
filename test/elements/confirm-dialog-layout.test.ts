import { expect } from '@open-wc/testing';
import { freshStart, until } from '../browser/billing.js';
import { openFrame, type TestFrame } from '../browser/frames.js';

// The confirmation dialog's two buttons on a phone, measured in a 360 px page (a frame, so that
// every engine has the narrow viewport the dialog's media query sees): stacked at full width,
// Cancel first and the action last as side by side, each label on one line, in English and
// French, for a purchase and for a plan change.

const shadowPart = (element: Element, name: string) =>
  element.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);

/** Opens `element`'s confirmation dialog (its `opener` part) in `tab`, and answers its buttons. */
async function openDialog(
  tab: TestFrame,
  element: HTMLElement,
  opener: () => HTMLElement | null,
  ready: () => boolean,
): Promise<{ cancel: HTMLElement; confirm: HTMLElement }> {
  tab.document.body.append(element);
  await until(() => ready(), 'a priced action', 10_000);
  opener()!.click();
  await until(
    () => element.shadowRoot!.querySelector('dialog')?.open === true,
    'the dialog',
    10_000,
  );
  const dialog = element.shadowRoot!.querySelector('dialog')!;
  await Promise.all(dialog.getAnimations({ subtree: true }).map((a) => a.finished));
  return { cancel: shadowPart(element, 'cancel')!, confirm: shadowPart(element, 'confirm')! };
}

/** Checks the buttons' layout at 360 px, naming the case in each message. */
function expectStacked(name: string, { cancel, confirm }: Record<string, HTMLElement>): void {
  const a = cancel!.getBoundingClientRect();
  const b = confirm!.getBoundingClientRect();
  const actions = cancel!.parentElement!.getBoundingClientRect();
  expect(confirm!.textContent, `${name}: the page's language`).to.match(
    name.endsWith('fr') ? /^\s*Payer/ : /^\s*Pay /,
  );
  expect(a.bottom, `${name}: Cancel above the action`).to.be.at.most(b.top);
  for (const [button, rect] of [
    ['Cancel', a],
    [confirm!.textContent!.trim(), b],
  ] as const) {
    expect(rect.width, `${name}: "${button}" at full width`).to.be.closeTo(actions.width, 1);
    expect(rect.right, `${name}: "${button}" inside the page`).to.be.at.most(360);
  }
  // One line each: the action as tall as Cancel, whose label is one word.
  expect(b.height, `${name}: "${confirm!.textContent!.trim()}" on one line`).to.be.closeTo(
    a.height,
    1,
  );
}

describe('the confirmation dialog at 360 px', () => {
  for (const lang of ['en', 'fr']) {
    it(`stacks its buttons at full width, each label on one line (${lang})`, async function () {
      this.timeout(40_000);
      await freshStart('healthy');
      const tab = await openFrame({ width: 360, height: 780 });
      try {
        tab.document.documentElement.lang = lang;
        await tab.window.billing.loadLanguage(lang as 'en' | 'fr');
        // Three seats: two included, one paid now ("Pay $0.98 and add").
        const buy = tab.document.createElement('buy-feature');
        buy.setAttribute('feature', 'seats');
        buy.setAttribute('quantity', '3');
        expectStacked(
          `buy ${lang}`,
          await openDialog(
            tab,
            buy,
            () => shadowPart(buy, 'buy'),
            () => shadowPart(buy, 'price-now') !== null,
          ),
        );
        // A plan change paid now ("Pay $… and switch").
        const picker = tab.document.createElement('plan-picker');
        const choice = () =>
          picker.shadowRoot?.querySelector<HTMLElement>('[data-offer="business"]') ?? null;
        expectStacked(
          `plan ${lang}`,
          await openDialog(tab, picker, choice, () => choice() !== null),
        );
      } finally {
        tab.remove();
      }
    });
  }
});
