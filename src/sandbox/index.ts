import type { AddressInfo } from 'node:net';
import type * as z from 'zod';
import { Catalog } from './catalog.js';
import { Clock } from './clock.js';
import type { SandboxContext, SandboxUrls } from './context.js';
import { Faults } from './control/faults.js';
import { Stats } from './control/stats.js';
import { fixturesFingerprint, loadFixtures } from './fixtures/load.js';
import type { SandboxFixtures } from './fixtures/schema.js';
import { buildEnvelope } from './notifications/envelope.js';
import { Notifier } from './notifications/notifier.js';
import type { TargetView } from './notifications/records.js';
import {
  DeliverySettingsSchema,
  WebhookTargetSchema,
  type DeliverySettingsInput,
  type WebhookTargetConfig,
  type WebhookTargetInput,
} from './notifications/settings.js';
import { buildRouters, createSandboxServer } from './server.js';
import { loadStateFile, StateWriter } from './state/persist.js';
import { seedState } from './state/seed.js';
import { Store } from './state/store.js';
import { TokenSealer } from './tokens.js';
import { settle } from './billing/rules.js';
import { parseTimestamp } from './timestamps.js';

export { defaultFixtures } from './fixtures/default.js';
export {
  FixtureError,
  parseFixtures,
  SandboxFixturesSchema,
  type ResolvedFixtures,
  type SandboxFixtures,
} from './fixtures/schema.js';
export { portalHash } from './tokens.js';
export { FAULT_MODES, type FaultMode } from './control/faults.js';
export {
  DEFAULT_WEBHOOK_SECRET,
  webhookSignature,
  type DeliverySettingsInput,
  type WebhookTargetInput,
} from './notifications/settings.js';
export type { TargetView as WebhookTargetView } from './notifications/records.js';

export interface SandboxOptions {
  /** 0 = a random free port (default). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Fixtures object or path to a JSON file; default: the built-in fixture. */
  fixtures?: SandboxFixtures | string;
  /** Persist the state to this file (atomic writes) and resume from it on start. */
  stateFile?: string;
  /** Initial clock (ISO); the clock is then frozen and moves only through the control API. */
  now?: string;
  /**
   * Where the sandbox writes its log lines (unknown fields it ignored, unexpected errors are
   * still written to the console); default: `console.warn`.
   */
  log?: (line: string) => void;
  /** Where to send the service's notifications, besides the fixture's `webhooks`. */
  webhooks?: WebhookTargetInput[];
  /** Retries, timeouts and bounds of the notifications' delivery (tests use short delays). */
  webhookDelivery?: DeliverySettingsInput;
}

export interface RunningSandbox {
  /** Origin, e.g. http://127.0.0.1:4010. */
  url: string;
  /** Same as url: API paths start with /v1. */
  apiUrl: string;
  hostedUrl: string;
  portalScriptUrl: string;
  businessId: number;
  segment: string;
  agentKey: string;
  apiKey: string;
  portalSecret: string;
  /** The webhook targets now (the control API adds and removes them). */
  webhookTargets(): TargetView[];
  /**
   * Calls `listener` each time the sandbox goes back to its fixtures (`POST /_sandbox/reset`),
   * which notifies nothing, as it is not a change of the service's: a host app in the same
   * process forgets what it cached of the customers (e.g. the proxy's `notify()`). Returns the
   * function that removes the listener.
   */
  onReset(listener: () => void): () => void;
  /** Stops the server and the notifications: nothing is sent once it resolves. */
  close(): Promise<void>;
}

/** Validates an option with its schema; the error names the option and the first wrong value. */
function parseOption<T extends z.ZodType>(schema: T, value: unknown, name: string): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = [name, ...(issue?.path ?? []).map(String)].join('.');
  throw new Error(`startSandbox: ${where} ${issue?.message ?? 'is invalid'}`);
}

/** Starts the billing-service sandbox on its own HTTP server. */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const fixtures = await loadFixtures(options.fixtures);
  const webhooks: WebhookTargetConfig[] = [
    ...fixtures.webhooks,
    ...(options.webhooks ?? []).map((target, index) =>
      parseOption(WebhookTargetSchema, target, `webhooks.${index}`),
    ),
  ];
  const deliverySettings = parseOption(
    DeliverySettingsSchema,
    options.webhookDelivery ?? {},
    'webhookDelivery',
  );
  const catalog = new Catalog(fixtures);
  const initialNow = options.now ?? fixtures.now;
  const initialMs = initialNow === undefined ? undefined : parseTimestamp(initialNow);
  if (initialMs === null) {
    throw new Error(`startSandbox: now must be an ISO 8601 timestamp, got '${initialNow}'`);
  }
  const freshClock = () => (initialMs === undefined ? Clock.running() : Clock.frozenAt(initialMs));
  const fingerprint = fixturesFingerprint(fixtures);
  const persisted = options.stateFile ? await loadStateFile(options.stateFile, fingerprint) : null;

  const clock = persisted ? new Clock(persisted.state.clock) : freshClock();
  const seed = () => seedState(fixtures, catalog, clock.nowMs(), clock.snapshot());
  const store = new Store(catalog, clock, persisted ? persisted.state : seed());
  const tokenKey = persisted
    ? Buffer.from(persisted.tokenKey, 'base64')
    : TokenSealer.generateKey();

  const urls: SandboxUrls = { url: '', hostedUrl: '', portalScriptUrl: '', installationUrl: '' };
  const log = options.log ?? ((line: string) => console.warn(line));
  const notifier = new Notifier({
    settings: deliverySettings,
    build: (event) => buildEnvelope(ctx, event),
    nowMs: () => clock.nowMs(),
    log,
  });
  const resetListeners = new Set<() => void>();
  const ctx: SandboxContext = {
    store,
    catalog,
    tokens: new TokenSealer(tokenKey),
    urls,
    faults: new Faults(),
    stats: new Stats(),
    notifier,
    log,
    reset() {
      const fresh = freshClock();
      clock.set(fresh.nowMs());
      // Back to the fixtures is not a change of the service's: nothing is notified.
      store.withoutEvents(() => {
        store.replace(seed());
        settle(store);
      });
      ctx.faults.clear();
      ctx.stats.clear();
      resetListeners.forEach((listener) => listener());
    },
  };

  let writer: StateWriter | null = null;
  if (options.stateFile) {
    writer = new StateWriter(options.stateFile, () => ({
      format: 'billing-elements-sandbox-state',
      fixturesHash: fingerprint,
      tokenKey: tokenKey.toString('base64'),
      state: store.snapshot(),
    }));
    store.onChange(() => writer?.schedule());
  }
  store.withoutEvents(() => settle(store));
  store.onEvent((event) => notifier.notify(event));

  const server = createSandboxServer(ctx, buildRouters(ctx));
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  urls.url = url;
  urls.hostedUrl = `${url}/hosted`;
  urls.portalScriptUrl = `${url}/portal.js`;
  urls.installationUrl = catalog.business.installationUrl ?? `${url}/insite`;
  writer?.schedule();
  for (const target of webhooks) notifier.addTarget(target);

  return {
    url,
    apiUrl: url,
    hostedUrl: urls.hostedUrl,
    portalScriptUrl: urls.portalScriptUrl,
    businessId: catalog.business.id,
    segment: catalog.segment.reference,
    agentKey: catalog.business.agentKey,
    apiKey: catalog.business.apiKey,
    portalSecret: catalog.business.portalSecret,
    webhookTargets: () => notifier.targets(),
    onReset(listener) {
      resetListeners.add(listener);
      return () => resetListeners.delete(listener);
    },
    async close() {
      await notifier.close();
      server.closeIdleConnections();
      const closed = new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
      // Keep-alive clients would hold close() open; their sockets carry no request now.
      const force = setTimeout(() => server.closeAllConnections(), 200);
      await closed.finally(() => clearTimeout(force));
      await writer?.flush();
    },
  };
}
