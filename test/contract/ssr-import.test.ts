import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

// Server rendering imports the package under Node: it must load without a DOM and our code
// must not read window or document at import time. Getters on globalThis record every access
// made from our sources (Lit's own Node build probes `globalThis.document` on purpose).
const ours = (stack: string) =>
  stack
    .split('\n')
    .slice(2)
    .some((line) => line.includes('/src/') && !line.includes('node_modules'));
describe('importing billing-elements under Node', () => {
  it('does not touch window or document and registers no tag', async () => {
    const touched: string[] = [];
    for (const name of ['window', 'document', 'sessionStorage', 'localStorage', 'location']) {
      Object.defineProperty(globalThis, name, {
        configurable: true,
        get() {
          if (ours(new Error().stack ?? '')) touched.push(name);
          return undefined;
        },
      });
    }
    try {
      const entry = await import('../../src/index.js');
      assert.equal(typeof entry.UsageMeter, 'function');
      assert.equal(typeof entry.BillingPortal, 'function');
      assert.equal(typeof entry.BuyFeature, 'function');
      assert.equal(typeof entry.getUsageStore, 'function');
      assert.deepEqual(touched, []);
      // The runtime works without a DOM as far as it can: no storage, no channel, no throw.
      const store = entry.getUsageStore('/billing');
      assert.equal(store.state.status, 'idle');
      assert.equal(store.isEntitled('seats'), false);
      // French arrives on demand, as on a page; English meanwhile, never a key.
      assert.equal(entry.messageFor('fr', 'retry'), 'Try again');
      await entry.loadLanguage('fr');
      assert.equal(entry.messageFor('fr', 'retry'), 'Réessayer');
      assert.equal(entry.formatNumber('fr', 1234.5), '1\u202f234,5');
      const registry = (globalThis as { customElements?: CustomElementRegistry }).customElements;
      for (const tag of ['usage-meter', 'buy-feature', 'billing-portal']) {
        assert.equal(registry?.get(tag), undefined, `<${tag}> must not be registered by the entry`);
      }
    } finally {
      for (const name of ['window', 'document', 'sessionStorage', 'localStorage', 'location']) {
        delete (globalThis as Record<string, unknown>)[name];
      }
    }
  });
});
