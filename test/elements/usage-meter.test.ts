import { expect, fixture, html } from '@open-wc/testing';
import '../../src/elements/usage-meter/define.js';
import type { UsageMeter } from '../../src/elements/usage-meter/usage-meter.js';
import { freshStart, proxyRequestCount, until } from '../browser/billing.js';

function ready(el: UsageMeter): Promise<void> {
  return until(() => !el.shadowRoot?.querySelector('[aria-busy="true"]'), 'the meter to load');
}

describe('<usage-meter>', () => {
  beforeEach(() => freshStart('healthy'));

  it('shows a limitation as an accessible meter', async () => {
    const el = await fixture<UsageMeter>(html`<usage-meter feature="seats"></usage-meter>`);
    await ready(el);
    const meter = el.shadowRoot!.querySelector('[role="meter"]')!;
    expect(meter.getAttribute('aria-valuenow')).to.equal('3');
    expect(meter.getAttribute('aria-valuemax')).to.equal('5');
    expect(el.shadowRoot!.querySelector('[part="figures"]')!.textContent!.replace(/\s+/g, ' ').trim()).to.equal('3 of 5');
    await expect(el).to.be.accessible();
    expect(await proxyRequestCount('GET', '/billing/usages')).to.equal(1);
  });
});
