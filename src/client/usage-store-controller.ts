import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { getUsageStore, type UsageStore, type UsageStoreState } from './usage-store.js';

/** An element that shows the usages of its proxy: its `endpoint`, else the page's. */
export interface UsageStoreHost extends ReactiveControllerHost {
  readonly endpoint: string | null | undefined;
}

/** What the host does on each change of the store, besides updating. */
export type UsageStoreChange = (state: UsageStoreState, store: UsageStore) => void;

/**
 * Follows the page's usage store of the host's proxy while the host is connected: subscribes on
 * connection, unsubscribes on disconnection, moves to the other proxy's store when `endpoint`
 * names another one, and asks the host to update on every change. Every element that shows
 * usages, or acts on their changes, follows the store through one of these.
 *
 * `onChange` runs on each change, before the host updates; `onFollow` when the host starts
 * following a store (on connection, and on a move to another proxy's: the usages it knew were
 * another's), to load it, say.
 *
 * @example
 * readonly #usages = new UsageStoreController(this, (state) => this.#check(state));
 */
export class UsageStoreController implements ReactiveController {
  readonly #host: UsageStoreHost;
  readonly #onChange: UsageStoreChange | undefined;
  readonly #onFollow: ((store: UsageStore) => void) | undefined;
  #following: UsageStore | undefined;
  #unsubscribe: (() => void) | undefined;

  constructor(
    host: UsageStoreHost,
    onChange?: UsageStoreChange,
    onFollow?: (store: UsageStore) => void,
  ) {
    this.#host = host;
    this.#onChange = onChange;
    this.#onFollow = onFollow;
    host.addController(this);
  }

  /**
   * The store of the host's proxy, as `endpoint` names it now. While the host is connected it is
   * the store followed: read after `endpoint` named another proxy, it moves the subscription
   * there first, so that what an update reads is what the host follows.
   */
  get store(): UsageStore {
    const store = getUsageStore(this.#host.endpoint);
    if (this.#following && this.#following !== store) this.#follow(store);
    return store;
  }

  hostConnected(): void {
    this.#follow(this.store);
  }

  hostDisconnected(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    this.#following = undefined;
  }

  /** Before each render: an `endpoint` that names another proxy moves to its store. */
  hostUpdate(): void {
    void this.store;
  }

  #follow(store: UsageStore): void {
    this.hostDisconnected();
    this.#following = store;
    this.#unsubscribe = store.subscribe((state) => {
      this.#onChange?.(state, store);
      this.#host.requestUpdate();
    });
    this.#onFollow?.(store);
    this.#host.requestUpdate();
  }
}
