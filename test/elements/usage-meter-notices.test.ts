import { expect, fixture, html } from '@open-wc/testing';
import '../../src/elements/usage-meter/define.js';
import type { UsageMeter } from '../../src/elements/usage-meter/usage-meter.js';
import { freshStart, until } from '../browser/billing.js';

// The states other than figures (a failure, no subscription, signed out...) are drawn by
// notices.ts, which a meter imports the first time one of them is to show (a page downloads only
// code it uses). This file runs in a page of its own: the first test sees the
// module unloaded.

/** Whether the browser fetched the meter's notices module (this page's resources so far). */
const noticesFetched = () =>
  performance
    .getEntriesByType('resource')
    .some((entry) => /\/usage-meter\/notices\.(ts|js)\b/.test(entry.name));

/** What the meter's shadow root shows, each time it changes: 'skeleton', 'message', or other. */
function watchBodies(el: UsageMeter): string[] {
  const seen: string[] = [];
  const look = () => {
    const root = el.shadowRoot!;
    let body = 'other';
    if (root.querySelector('[part~="skeleton"]')) body = 'skeleton';
    else if (root.querySelector('[part~="message"]')) body = 'message';
    if (seen.at(-1) !== body) seen.push(body);
  };
  look();
  new MutationObserver(look).observe(el.shadowRoot!, {
    childList: true,
    subtree: true,
    characterData: true,
  });
  return seen;
}

describe('<usage-meter> rare states, loaded on demand', () => {
  it('shows figures without downloading the code of its other states', async () => {
    await freshStart('healthy');
    const el = await fixture<UsageMeter>(html`<usage-meter feature="seats"></usage-meter>`);
    await until(() => el.state === 'ready', 'the meter to show its figures');
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part~="figures"]')).to.not.equal(null);
    expect(noticesFetched()).to.equal(false);
  });

  it('goes from its skeleton straight to the state once its code is loaded', async () => {
    await freshStart('no-subscription');
    const el = document.createElement('usage-meter') as UsageMeter;
    el.feature = 'seats';
    document.body.append(el);
    try {
      await el.updateComplete;
      const bodies = watchBodies(el);
      await until(() => el.state !== 'loading', 'the meter to settle');
      // Set only once the module is there: the state and what shows come together.
      expect(noticesFetched()).to.equal(true);
      await el.updateComplete;
      expect(el.state).to.equal('no-subscription');
      expect(bodies).to.deep.equal(['skeleton', 'message']);
      expect(el.shadowRoot!.querySelector('[part~="message"]')!.textContent).to.contain(
        'Choose a plan to get started.',
      );
    } finally {
      el.remove();
    }
  });
});
