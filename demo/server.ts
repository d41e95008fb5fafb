import { createServer as createHttpServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { createServer, type Plugin, type ViteDevServer } from 'vite';
import { billingProxyVitePlugin } from 'billing-elements/server';
import { defaultFixtures, startSandbox } from 'billing-elements/sandbox';
import { SEATS_IN_USE } from './customers.js';
import { loadDirectory } from './directory.js';
import { closeHttp, listen } from './listen.js';
import { demoRoutes } from './routes.js';
import { createScriptBundle } from './script-bundle.js';
import { createSessionCodec } from './session.js';

// The demo host app: the billing sandbox, and a Vite dev server that serves the demo pages,
// the app's own sign-in, and the billing proxy mounted the way a user would mount it.

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const src = (path: string) => fileURLToPath(new URL(`../src/${path}`, import.meta.url));

export interface DemoOptions {
  /** Port of the demo; 0 picks a free one. Default 5173; the next free port when busy (unless strictPort). */
  port?: number;
  /** Fail instead of trying the next port. Default false. */
  strictPort?: boolean;
  /** Default 127.0.0.1. */
  host?: string;
  /** Port of the sandbox; default 0 (a free one). */
  sandboxPort?: number;
  /** Vite's log level. Default 'info'. */
  logLevel?: 'info' | 'warn' | 'error' | 'silent';
  /** Where Vite keeps its pre-bundled dependencies (give each concurrent server its own). */
  cacheDir?: string;
  /** Reload pages when files change. Default true. */
  watch?: boolean;
  /** Build the script-tag file at start rather than on its first request. Default true. */
  prebuildScriptTag?: boolean;
  /** Other origins whose pages may call the demo's billing proxy (its `allowedOrigins`). */
  allowedOrigins?: string[];
}

export type DemoSandbox = Awaited<ReturnType<typeof startSandbox>>;

export interface DemoServer {
  /** Address of the demo, e.g. http://127.0.0.1:5173 */
  url: string;
  sandbox: DemoSandbox;
  vite: ViteDevServer;
  close(): Promise<void>;
}

/** The default fixtures, with the demo's company as the business the portal pages show. */
function demoFixtures() {
  const fixtures = defaultFixtures();
  return { ...fixtures, business: { ...fixtures.business, name: 'Northwind Analytics' } };
}

/** The demo proxy's webhook: the sandbox signs its notifications with these. */
const WEBHOOK_SECRET = 'demo-webhook-secret';
const WEBHOOK_KEY = 'demo-webhook';

/** Points the sandbox's notifications at the demo's proxy (through its control API). */
async function addWebhook(sandbox: DemoSandbox, url: string): Promise<void> {
  const response = await fetch(`${sandbox.url}/_sandbox/webhooks`, {
    method: 'POST',
    headers: { authorization: basicAuth(sandbox), 'content-type': 'application/json' },
    body: JSON.stringify({ url, secret: WEBHOOK_SECRET, key: WEBHOOK_KEY }),
  });
  if (!response.ok)
    throw new Error(`the sandbox refused the demo's webhook: ${await response.text()}`);
}

function basicAuth(sandbox: DemoSandbox): string {
  return `Basic ${Buffer.from(`${sandbox.agentKey}:${sandbox.apiKey}`).toString('base64')}`;
}

/** The host's back end reports 250 API calls of the customer to the billing service. */
async function reportApiCalls(sandbox: DemoSandbox, customer: string): Promise<void> {
  const response = await fetch(`${sandbox.apiUrl}/v1/Usage`, {
    method: 'POST',
    headers: { authorization: basicAuth(sandbox), 'content-type': 'application/json' },
    body: JSON.stringify({
      ReferenceCustomer: customer,
      ReferenceFeature: 'api-calls',
      Increment: 250,
      DateStamp: new Date().toISOString(),
    }),
  });
  // A customer without API calls in its plan (or without a plan) is refused: nothing to report.
  await response.body?.cancel();
}

/** On the given port, or on a free one when it is taken. */
async function startSandboxWithFallback(host: string, port: number): Promise<DemoSandbox> {
  try {
    return await startSandbox({ host, port, fixtures: demoFixtures() });
  } catch (error) {
    if (port === 0 || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    return startSandbox({ host, port: 0, fixtures: demoFixtures() });
  }
}

export async function startDemo(options: DemoOptions = {}): Promise<DemoServer> {
  const host = options.host ?? '127.0.0.1';
  const sandbox = await startSandboxWithFallback(host, options.sandboxPort ?? 0);
  let vite: ViteDevServer | undefined;
  let httpServer: Server | undefined;
  try {
    const directory = await loadDirectory(sandbox);
    const sessions = createSessionCodec();
    const scriptBundle = createScriptBundle(ROOT);

    const proxy = billingProxyVitePlugin({
      basePath: '/billing',
      allowedOrigins: options.allowedOrigins ?? [],
      baseUrl: sandbox.apiUrl,
      agentKey: sandbox.agentKey,
      apiKey: sandbox.apiKey,
      businessId: sandbox.businessId,
      segment: sandbox.segment,
      portalScriptUrl: sandbox.portalScriptUrl,
      portalSecret: sandbox.portalSecret,
      // The customer comes from the demo's own session cookie, never from the browser's say-so.
      // The sandbox's notifications come back through the proxy's webhook (added below, once
      // the demo's address is known), so open pages follow every change live.
      notifications: { secret: WEBHOOK_SECRET, key: WEBHOOK_KEY },
      // The demo registers its own webhook: its verification code needs no operator.
      logger: (entry) => {
        if (entry.event === 'webhook-verification') return;
        if (entry.level === 'warn')
          console.warn(`[billing-proxy] ${entry.event}: ${entry.message}`);
        if (entry.level === 'error')
          console.error(`[billing-proxy] ${entry.event}: ${entry.message}`);
      },
      // The host's own count of seats in use: a decrease never goes below it, whatever a page says.
      inUse: (identity, feature) =>
        feature === 'seats' ? SEATS_IN_USE[identity.reference] : undefined,
      // Whether a customer's prices include tax is the business's to say: the elements say it.
      taxes: (identity) => directory.get(identity.reference)?.taxes,
      identify: (request: Request) => {
        const customer = directory.get(sessions.read(request.headers.get('cookie')) ?? '');
        return customer
          ? { reference: customer.reference, name: customer.name, email: customer.email }
          : null;
      },
    });
    // Back to the fixtures (the tests' reset) notifies nothing, as it is no change of the
    // service's: the proxy forgets what it cached of each customer.
    sandbox.onReset(() => {
      for (const reference of directory.keys()) void proxy.proxy.notify(reference);
    });

    const hostApp: Plugin = {
      name: 'northwind-host-app',
      configureServer(server) {
        server.middlewares.use(
          demoRoutes({
            root: ROOT,
            vite: server,
            sessions,
            directory,
            scriptBundle: scriptBundle.serve,
            reportUsage: (customer) => reportApiCalls(sandbox, customer),
          }),
        );
        server.watcher.on('change', (file) => {
          if (file.startsWith(src(''))) scriptBundle.invalidate();
        });
      },
    };

    // Vite in middleware mode on a server of our own: we choose the port (and the next free one
    // when it is busy) and we close it, instead of Vite exiting the process on SIGTERM.
    httpServer = createHttpServer();
    vite = await createServer({
      configFile: false,
      root: ROOT,
      appType: 'custom',
      clearScreen: false,
      logLevel: options.logLevel ?? 'info',
      // Its own pre-bundled dependencies, apart from any other Vite use of the repository.
      cacheDir:
        options.cacheDir ?? fileURLToPath(new URL('../node_modules/.vite/demo', import.meta.url)),
      publicDir: false,
      resolve: {
        // The demo imports the package as a user does; these resolve its entry points to the
        // sources, so no build is needed first.
        alias: [
          { find: /^billing-elements$/, replacement: src('index.ts') },
          { find: /^billing-elements\/define$/, replacement: src('define.ts') },
        ],
      },
      optimizeDeps: {
        entries: ['index.html', 'demo/src/*.ts'],
        include: ['lit', 'zod/mini'],
      },
      server: {
        middlewareMode: true,
        // The HMR socket always rides on our own server: with `hmr: false` the Vite client in
        // the page still tries a socket of its own and throws "WebSocket closed without opened"
        // whenever the optimizer asks for a reload.
        hmr: { server: httpServer },
        ...(options.watch === false ? { watch: null } : {}),
      },
      plugins: [proxy, hostApp],
    });
    httpServer.on('request', vite.middlewares);
    const port = await listen(httpServer, host, options.port ?? 5173, options.strictPort ?? false);
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    if (options.prebuildScriptTag !== false) scriptBundle.warm();
    await addWebhook(sandbox, `${url}/billing/webhooks`);

    const server = vite;
    const http = httpServer;
    let closing: Promise<void> | undefined;
    return {
      url,
      sandbox,
      vite: server,
      close() {
        closing ??= (async () => {
          await server.close();
          await closeHttp(http);
          await sandbox.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    await vite?.close().catch(() => undefined);
    if (httpServer?.listening) await closeHttp(httpServer).catch(() => undefined);
    await sandbox.close().catch(() => undefined);
    throw error;
  }
}
