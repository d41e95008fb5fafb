import type { Catalog } from './catalog.js';
import type { Faults } from './control/faults.js';
import type { Notifier } from './notifications/notifier.js';
import type { Stats } from './control/stats.js';
import type { Store } from './state/store.js';
import type { HostedTarget, TokenSealer } from './tokens.js';

export interface SandboxUrls {
  url: string;
  hostedUrl: string;
  portalScriptUrl: string;
  installationUrl: string;
}

/** Everything a handler needs, built once per sandbox. */
export interface SandboxContext {
  store: Store;
  catalog: Catalog;
  tokens: TokenSealer;
  urls: SandboxUrls;
  faults: Faults;
  stats: Stats;
  /** Sends the service's notifications to the configured webhooks. */
  notifier: Notifier;
  /** Writes one line to the sandbox's log (what a developer watching the sandbox should see). */
  log(line: string): void;
  /** Back to the fixtures. */
  reset(): void;
}

export function hostedHref(ctx: SandboxContext, target: HostedTarget): string {
  return `${ctx.urls.hostedUrl}/${target.page}/${ctx.tokens.seal('hosted', target)}`;
}

export function insiteQuery(ctx: SandboxContext, target: HostedTarget): string {
  return ctx.tokens.seal('query', target);
}
