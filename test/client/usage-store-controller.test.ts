import { expect, fixture, html } from '@open-wc/testing';
import { LitElement } from 'lit';
import type { Usage } from '../../src/contract/resources.js';
import { getUsageStore, type UsageStore } from '../../src/client/usage-store.js';
import { UsageStoreController } from '../../src/client/usage-store-controller.js';
import { freshStart } from '../browser/billing.js';

/** A host that records what its controller tells it. */
class StoreFollower extends LitElement {
  static override properties = { endpoint: {} };
  declare endpoint: string | undefined;
  /** The stores it started following, in order. */
  followed: UsageStore[] = [];
  /** The stores whose changes reached it, in order. */
  changes: UsageStore[] = [];
  renders = 0;
  readonly usages = new UsageStoreController(
    this,
    (_state, store) => this.changes.push(store),
    (store) => this.followed.push(store),
  );

  override render() {
    this.renders += 1;
    return html`${this.usages.store.state.usages.length}`;
  }
}
customElements.define('store-follower', StoreFollower);

const seats = (current: number): Usage => ({
  IdSubscription: 1001,
  ReferenceFeature: 'seats',
  TypeFeature: 'Limitation',
  QuantityIncluded: 5,
  QuantityCurrent: current,
});

describe('UsageStoreController', () => {
  beforeEach(() => freshStart('healthy'));

  it('follows the store while connected, and updates the host on each change', async () => {
    const el = await fixture<StoreFollower>(html`<store-follower></store-follower>`);
    const store = getUsageStore();
    expect(el.followed).to.deep.equal([store]);
    const renders = el.renders;
    store.applyUsage(seats(2));
    expect(el.changes).to.deep.equal([store]);
    expect(el.isUpdatePending).to.equal(true);
    await el.updateComplete;
    expect(el.renders).to.equal(renders + 1);
    expect(el.shadowRoot!.textContent).to.equal('1');
    // Out of the document it hears nothing more; back in, it follows the store again.
    const parent = el.parentElement!;
    el.remove();
    store.applyUsage(seats(3));
    expect(el.changes).to.have.length(1);
    expect(el.isUpdatePending).to.equal(false);
    parent.append(el);
    expect(el.followed).to.deep.equal([store, store]);
    store.applyUsage(seats(4));
    expect(el.changes).to.have.length(2);
  });

  it("moves to the other proxy's store when endpoint changes", async () => {
    const el = await fixture<StoreFollower>(html`<store-follower></store-follower>`);
    const first = getUsageStore();
    const other = getUsageStore('/billing-alt');
    el.endpoint = '/billing-alt';
    // Read before the update, the store is already the new one, and followed.
    expect(el.usages.store).to.equal(other);
    expect(el.followed).to.deep.equal([first, other]);
    await el.updateComplete;
    expect(el.followed).to.deep.equal([first, other]);
    first.applyUsage(seats(2));
    expect(el.changes).to.deep.equal([]);
    other.applyUsage(seats(2));
    expect(el.changes).to.deep.equal([other]);
  });

  it('moves at the next update when the host does not read the store', async () => {
    const el = await fixture<StoreFollower>(html`<store-follower></store-follower>`);
    el.endpoint = '/billing-alt';
    await el.updateComplete;
    expect(el.followed).to.deep.equal([getUsageStore(), getUsageStore('/billing-alt')]);
  });

  it('follows a store named while out of the document only once connected again', async () => {
    const el = await fixture<StoreFollower>(html`<store-follower></store-follower>`);
    const parent = el.parentElement!;
    el.remove();
    el.endpoint = '/billing-alt';
    await el.updateComplete;
    const other = getUsageStore('/billing-alt');
    other.applyUsage(seats(2));
    expect(el.changes).to.deep.equal([]);
    expect(el.followed).to.deep.equal([getUsageStore()]);
    parent.append(el);
    expect(el.followed).to.deep.equal([getUsageStore(), other]);
    other.applyUsage(seats(3));
    expect(el.changes).to.deep.equal([other]);
  });
});
