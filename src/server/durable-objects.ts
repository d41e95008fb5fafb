// The few Cloudflare Workers types the Durable Object store and signal bus use, declared here as
// the smallest interfaces they need: the package compiles without @cloudflare/workers-types
// (whose globals would clash with the DOM's), and a Worker's own `DurableObjectNamespace`,
// `DurableObjectState` and `WebSocket` are assignable to them.

/** A Durable Object namespace binding (`env.BILLING_IDEMPOTENCY`): names to objects. */
export interface DurableObjectNamespaceLike<Id = unknown> {
  idFromName(name: string): Id;
  get(id: Id): DurableObjectStubLike;
}

/** A stub of one object: requests to it reach its `fetch`. */
export interface DurableObjectStubLike {
  fetch(input: string, init?: RequestInit): Promise<Response>;
}

/** The object's transactional storage (the key-value API, on SQLite-backed objects too). */
export interface DurableObjectStorageLike {
  get<T>(key: string): Promise<T | undefined>;
  put<T>(key: string, value: T): Promise<void>;
  delete(key: string): Promise<boolean>;
  list<T>(): Promise<Map<string, T>>;
  getAlarm(): Promise<number | null>;
  setAlarm(scheduledTime: number): Promise<void>;
}

/** What a Durable Object class receives as its first constructor argument (`ctx`). */
export interface DurableObjectStateLike {
  storage: DurableObjectStorageLike;
  /** The hibernation API: the object may be evicted from memory while the socket stays open. */
  acceptWebSocket(socket: WorkerWebSocket): void;
  getWebSockets(): WorkerWebSocket[];
}

/** A Workers WebSocket: one end of a `WebSocketPair`, or `response.webSocket` of an upgrade. */
export interface WorkerWebSocket {
  accept(): void;
  send(message: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  addEventListener(type: 'close' | 'error', listener: () => void): void;
}

/** True when `value` looks like a Durable Object namespace binding. */
export function isDurableObjectNamespace(value: unknown): value is DurableObjectNamespaceLike {
  const namespace = value as Partial<DurableObjectNamespaceLike> | null | undefined;
  return typeof namespace?.idFromName === 'function' && typeof namespace.get === 'function';
}
