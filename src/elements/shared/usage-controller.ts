import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { getUsageStore, type UsageStore, type UsageStoreState } from '../../client/usage-store.js';

/** An element that shows usages: its proxy is read on each connection. */
interface UsageHost extends ReactiveControllerHost, HTMLElement {
  endpoint: string | undefined;
}

/**
 * Connects an element to the page's usage store: loads the usages when the element connects
 * (one request for the whole page), re-renders it on every change, stops listening when it
 * disconnects. `endpoint` is read on each connection, so an `endpoint` attribute applies.
 */
export class UsageController implements ReactiveController {
  #host: UsageHost;
  #onChange: (state: UsageStoreState) => void;
  #store: UsageStore | null = null;
  #unsubscribe: (() => void) | null = null;

  constructor(host: UsageHost, onChange: (state: UsageStoreState) => void) {
    this.#host = host;
    this.#onChange = onChange;
    host.addController(this);
  }

  /** The store in use (the page's store for the element's endpoint). */
  get store(): UsageStore {
    return (this.#store ??= getUsageStore(this.#host.endpoint));
  }

  /** Switches stores after the endpoint changed. */
  reconnect(): void {
    this.hostDisconnected();
    this.#store = null;
    this.hostConnected();
  }

  hostConnected(): void {
    // Loads (or reloads after an error) without letting a failure escape: it is shown from state.
    const load = () => this.store.load().catch(() => undefined);
    this.#unsubscribe = this.store.subscribe((state) => {
      this.#onChange(state);
      this.#host.requestUpdate();
      // Cleared (sign-out, another customer): a connected element asks again, so it shows the
      // new customer's usages, or says the session ended, instead of a skeleton forever.
      if (state.status === 'idle') queueMicrotask(() => this.#unsubscribe && load());
    });
    load();
    this.#host.requestUpdate();
  }

  hostDisconnected(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
  }
}
