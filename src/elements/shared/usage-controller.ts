import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Usage } from '../../contract/resources.js';
import { getUsageStore, type UsageStore, type UsageStoreState } from '../../client/usage-store.js';

/**
 * Connects an element to the page's usage store: loads the usages when the element connects
 * (one request for the whole page), re-renders it on every change, stops listening when it
 * disconnects. `endpoint` is read on each connection, so an `endpoint` attribute applies.
 */
export class UsageController implements ReactiveController {
  #host: ReactiveControllerHost & HTMLElement;
  #endpoint: () => string | null | undefined;
  #store: UsageStore | null = null;
  #unsubscribe: (() => void) | null = null;
  #onChange: ((state: UsageStoreState) => void) | undefined;

  constructor(
    host: ReactiveControllerHost & HTMLElement,
    endpoint: () => string | null | undefined,
    onChange?: (state: UsageStoreState) => void,
  ) {
    this.#host = host;
    this.#endpoint = endpoint;
    this.#onChange = onChange;
    host.addController(this);
  }

  /** The store in use (the page's store for the element's endpoint). */
  get store(): UsageStore {
    this.#store ??= getUsageStore(this.#endpoint());
    return this.#store;
  }

  get state(): UsageStoreState {
    return this.store.state;
  }

  get(feature: string): Usage | undefined {
    return this.store.get(feature);
  }

  /** Switches stores after the endpoint changed. */
  reconnect(): void {
    this.hostDisconnected();
    this.#store = null;
    this.hostConnected();
  }

  /** Loads (or reloads after an error) without letting a failure escape: it is shown from state. */
  load(): void {
    this.store.load().catch(() => undefined);
  }

  retry(): void {
    this.store.refresh().catch(() => undefined);
  }

  hostConnected(): void {
    this.#unsubscribe = this.store.subscribe((state) => {
      this.#onChange?.(state);
      this.#host.requestUpdate();
      // Cleared (sign-out, another customer): a connected element asks again, so it shows the
      // new customer's usages, or says the session ended, instead of a skeleton forever.
      if (state.status === 'idle') queueMicrotask(() => this.#unsubscribe && this.load());
    });
    this.load();
    this.#host.requestUpdate();
  }

  hostDisconnected(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
  }
}
