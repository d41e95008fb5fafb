import type { Catalog } from '../catalog.js';
import type { Clock } from '../clock.js';
import { notFound } from '../http/errors.js';
import type {
  CustomerRecord,
  InvoiceRecord,
  SandboxState,
  StateEvent,
  SubscriptionRecord,
} from './types.js';

/**
 * The sandbox's state with the indexes the handlers need. Handlers run synchronously between
 * awaits, so each operation validates everything first and then mutates: a request never leaves
 * a partial change behind.
 */
export class Store {
  #state: SandboxState;
  readonly #customersByRef = new Map<string, CustomerRecord>();
  readonly #customersById = new Map<number, CustomerRecord>();
  readonly #subscriptionsById = new Map<number, SubscriptionRecord>();
  readonly #subscriptionsByCustomer = new Map<number, SubscriptionRecord[]>();
  readonly #invoicesById = new Map<number, InvoiceRecord>();
  readonly #invoicesByCustomer = new Map<number, InvoiceRecord[]>();
  #listeners: (() => void)[] = [];
  #eventListeners: ((event: StateEvent) => void)[] = [];
  #eventsMuted = false;
  /** Earliest time at which something happens by itself (renewal, collection); -Infinity = unknown. */
  nextEventMs = -Infinity;

  constructor(
    readonly catalog: Catalog,
    readonly clock: Clock,
    state: SandboxState,
  ) {
    this.#state = state;
    this.#reindex();
  }

  get state(): SandboxState {
    return this.#state;
  }

  /** Replaces the whole state (reset, load). */
  replace(state: SandboxState): void {
    this.#state = state;
    this.#reindex();
    this.invalidateEvents();
    this.changed();
  }

  /** Forces the next catch-up to look at every customer (new invoice, new period, clock set). */
  invalidateEvents(): void {
    this.nextEventMs = -Infinity;
  }

  onChange(listener: () => void): void {
    this.#listeners.push(listener);
  }

  /** Called after every mutation: persistence hooks in here. */
  changed(): void {
    for (const listener of this.#listeners) listener();
  }

  /** Listens to the changes the service notifies (the webhooks' source). */
  onEvent(listener: (event: StateEvent) => void): void {
    this.#eventListeners.push(listener);
  }

  /**
   * Reports a change the service notifies. Called by the operation that made it, once its
   * mutation is complete, so that a listener reading the records sees the state after it.
   */
  emit(event: StateEvent): void {
    if (this.#eventsMuted) return;
    for (const listener of this.#eventListeners) listener(event);
  }

  /** Runs `work` without notifying (start and reset bring the fixtures up to the clock). */
  withoutEvents(work: () => void): void {
    const before = this.#eventsMuted;
    this.#eventsMuted = true;
    try {
      work();
    } finally {
      this.#eventsMuted = before;
    }
  }

  snapshot(): SandboxState {
    return { ...this.#state, clock: this.clock.snapshot() };
  }

  #reindex(): void {
    this.#customersByRef.clear();
    this.#customersById.clear();
    this.#subscriptionsById.clear();
    this.#subscriptionsByCustomer.clear();
    this.#invoicesById.clear();
    this.#invoicesByCustomer.clear();
    for (const c of this.#state.customers) this.#indexCustomer(c);
    for (const s of this.#state.subscriptions) this.#indexSubscription(s);
    for (const i of this.#state.invoices) this.#indexInvoice(i);
  }

  #indexCustomer(c: CustomerRecord): void {
    this.#customersByRef.set(c.reference, c);
    this.#customersById.set(c.id, c);
  }

  #indexSubscription(s: SubscriptionRecord): void {
    this.#subscriptionsById.set(s.id, s);
    const list = this.#subscriptionsByCustomer.get(s.customerId) ?? [];
    list.push(s);
    this.#subscriptionsByCustomer.set(s.customerId, list);
  }

  #indexInvoice(i: InvoiceRecord): void {
    this.#invoicesById.set(i.id, i);
    const list = this.#invoicesByCustomer.get(i.customerId) ?? [];
    list.push(i);
    this.#invoicesByCustomer.set(i.customerId, list);
  }

  nextId(kind: keyof SandboxState['nextId']): number {
    const id = this.#state.nextId[kind];
    this.#state.nextId[kind] = id + 1;
    return id;
  }

  addCustomer(c: CustomerRecord): void {
    this.#state.customers.push(c);
    this.#indexCustomer(c);
  }

  addSubscription(s: SubscriptionRecord): void {
    this.#state.subscriptions.push(s);
    this.#indexSubscription(s);
  }

  addInvoice(i: InvoiceRecord): void {
    this.#state.invoices.push(i);
    this.#indexInvoice(i);
  }

  findCustomer(reference: string): CustomerRecord | undefined {
    return this.#customersByRef.get(reference);
  }

  customer(reference: string): CustomerRecord {
    const c = this.#customersByRef.get(reference);
    if (!c) {
      throw notFound(
        'Error.Customer.NotFound',
        `No customer with reference '${reference}'.`,
        'ReferenceCustomer',
      );
    }
    return c;
  }

  customerById(id: number): CustomerRecord | undefined {
    return this.#customersById.get(id);
  }

  subscription(id: number): SubscriptionRecord {
    const s = this.#subscriptionsById.get(id);
    if (!s) throw notFound('Error.Subscription.NotFound', `No subscription with id ${id}.`);
    return s;
  }

  findSubscription(id: number): SubscriptionRecord | undefined {
    return this.#subscriptionsById.get(id);
  }

  subscriptionsOf(customerId: number): SubscriptionRecord[] {
    return this.#subscriptionsByCustomer.get(customerId) ?? [];
  }

  /**
   * The customer's subscription that matters for entitlement: the most recent running or
   * suspended one; else the most recent pending (non-custom) one; else undefined.
   */
  mainSubscription(customerId: number): SubscriptionRecord | undefined {
    const subs = this.subscriptionsOf(customerId);
    const active = subs.filter(
      (s) => !s.custom && s.state !== 'PendingSubscription' && s.state !== 'Ended',
    );
    if (active.length > 0) return active[active.length - 1];
    const pending = subs.filter((s) => !s.custom && s.state === 'PendingSubscription');
    return pending[pending.length - 1];
  }

  invoice(id: number): InvoiceRecord {
    const i = this.#invoicesById.get(id);
    if (!i) throw notFound('Error.Invoice.NotFound', `No invoice with id ${id}.`);
    return i;
  }

  invoicesOf(customerId: number): InvoiceRecord[] {
    return this.#invoicesByCustomer.get(customerId) ?? [];
  }
}
