// The browser tests' server side: a real sandbox of the billing service and the real billing
// proxy in front of it, mounted on web-test-runner's dev server so the test pages reach the
// proxy same-origin at /billing, as a host app would mount it. Test-only routes under /_test
// let a test pick the signed-in customer (a cookie), reset the sandbox, drive its control API
// and count what reached the proxy.
import type { Plugin } from '@web/dev-server-core';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { Context, Next } from 'koa';
import { createBillingProxy, type BillingProxy } from '../src/server/index.js';
import { startSandbox } from '../src/sandbox/index.js';
import { analyze } from '../scripts/docs.mjs';

type RunningSandbox = Awaited<ReturnType<typeof startSandbox>>;

/** The webhook the sandbox notifies the /billing proxy through. */
const WEBHOOK_SECRET = 'browser-tests-webhook-secret';
const WEBHOOK_KEY = 'browser-tests-webhook';

/** Cookie the browser helpers set to sign a customer in (test/browser/billing.ts). */
export const CUSTOMER_COOKIE = 'billing_test_customer';

interface Mount {
  basePath: string;
  proxy: BillingProxy;
}

function cookieValue(header: string | null, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

async function readBody(ctx: Context): Promise<Buffer | null> {
  if (ctx.method === 'GET' || ctx.method === 'HEAD') return null;
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Koa context → web Request. */
async function toRequest(ctx: Context): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(ctx.req.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const body = await readBody(ctx);
  return new Request(`${ctx.protocol}://${ctx.host}${ctx.originalUrl}`, {
    method: ctx.method,
    headers,
    body: body ? new Uint8Array(body) : null,
  });
}

/** Web Response → Koa context. */
async function sendResponse(ctx: Context, response: Response): Promise<void> {
  ctx.status = response.status;
  response.headers.forEach((value, name) => {
    if (name !== 'content-length' && name !== 'content-encoding') ctx.set(name, value);
  });
  // An event stream is passed on as it comes; any other answer whole.
  if (
    response.body !== null &&
    response.headers.get('content-type')?.startsWith('text/event-stream')
  ) {
    ctx.body = Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>);
    return;
  }
  ctx.body = Buffer.from(await response.arrayBuffer());
}

function sendJson(ctx: Context, status: number, body: unknown): void {
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.set('cache-control', 'no-store');
  ctx.body = JSON.stringify(body);
}

/** The dev-server plugin: starts the sandbox and mounts the proxy and the test routes. */
export function browserTestServerPlugin(): Plugin {
  let sandbox: RunningSandbox | null = null;
  const requests = new Map<string, number>();
  /** Event streams the proxies answered: by then the stream follows its customer's signals. */
  let streamsOpened = 0;
  const flaky = { failing: true, hits: 0 };
  /** The manifest, analysed once per test run (see /_test/manifest). */
  let manifest: ReturnType<typeof analyze> | undefined;

  return {
    name: 'billing-test-server',

    async serverStart({ app, config, server }) {
      const origin = `http://${config.hostname ?? 'localhost'}:${config.port ?? 8000}`;
      // The sandbox posts its notifications to the /billing proxy, as the service would.
      const running = await startSandbox({
        port: 0,
        webhooks: [{ url: `${origin}/billing/webhooks`, secret: WEBHOOK_SECRET, key: WEBHOOK_KEY }],
      });
      sandbox = running;
      const basic = `Basic ${Buffer.from(`${running.agentKey}:${running.apiKey}`).toString('base64')}`;
      // Every customer a proxy has served: a reset of the sandbox notifies nothing, so each
      // proxy forgets what it cached of them, as the demo does.
      const served = new Set<string>();

      const proxyFor = (
        basePath: string,
        portalScriptUrl: string,
        {
          notifications,
          hostedOrigin = running.url,
          rateLimit = false,
          taxes,
        }: {
          notifications?: { secret: string; key: string };
          hostedOrigin?: string;
          rateLimit?: { capacity: number; refillPerSecond: number } | false;
          taxes?: 'included' | 'excluded';
        } = {},
      ): Mount => ({
        basePath,
        proxy: createBillingProxy({
          baseUrl: running.apiUrl,
          agentKey: running.agentKey,
          apiKey: running.apiKey,
          businessId: running.businessId,
          segment: running.segment,
          portalScriptUrl,
          portalSecret: running.portalSecret,
          hostedOrigin,
          basePath,
          // Tests hammer the same customer far faster than a person would: no limit, but where
          // the limit is the subject.
          limits: { rateLimit },
          ...(notifications ? { notifications } : {}),
          ...(taxes ? { taxes } : {}),
          identify(request) {
            const reference = cookieValue(request.headers.get('cookie'), CUSTOMER_COOKIE);
            if (!reference) return null;
            served.add(reference);
            return { reference, name: `Test ${reference}`, email: `${reference}@example.test` };
          },
        }),
      });
      // Longest base path first, so /billing-flaky is not taken for /billing.
      const mounts = [
        proxyFor('/billing-flaky', `${origin}/_test/flaky-portal.js`),
        // The real script under another address: a page that already loaded it loads it anew.
        proxyFor('/billing-alt', `${origin}/_test/portal.js`),
        // A service whose hosted pages are elsewhere than the sandbox's installation page.
        proxyFor('/billing-elsewhere', running.portalScriptUrl, {
          hostedOrigin: 'https://hosted.example',
        }),
        // A proxy that limits prices and purchases per customer to a burst of 2, then one every
        // 100 s: a test that spends the burst meets its 429 `rate-limited` for the rest of the run.
        proxyFor('/billing-limited', running.portalScriptUrl, {
          rateLimit: { capacity: 2, refillPerSecond: 0.01 },
        }),
        // A business whose prices include tax, and one whose prices have it added on the invoice.
        proxyFor('/billing-tax-included', running.portalScriptUrl, { taxes: 'included' }),
        proxyFor('/billing-tax-excluded', running.portalScriptUrl, { taxes: 'excluded' }),
        proxyFor('/billing', running.portalScriptUrl, {
          notifications: { secret: WEBHOOK_SECRET, key: WEBHOOK_KEY },
        }),
      ];

      running.onReset(() => {
        for (const { proxy } of mounts)
          for (const reference of served) void proxy.notify(reference);
      });

      const sandboxControl = async (path: string, init: RequestInit = {}) => {
        const response = await fetch(`${running.url}/_sandbox${path}`, {
          ...init,
          headers: { authorization: basic, 'content-type': 'application/json' },
        });
        return response;
      };

      const middleware = async (ctx: Context, next: Next): Promise<void> => {
        const path = ctx.path;
        const mount = mounts.find(
          (candidate) => path === candidate.basePath || path.startsWith(`${candidate.basePath}/`),
        );
        if (mount) {
          const key = `${ctx.method} ${path}`;
          requests.set(key, (requests.get(key) ?? 0) + 1);
          const response = await mount.proxy.handler(await toRequest(ctx));
          if (response.headers.get('content-type')?.startsWith('text/event-stream'))
            streamsOpened += 1;
          await sendResponse(ctx, response);
          return;
        }
        if (!path.startsWith('/_test/')) {
          await next();
          return;
        }
        if (path === '/_test/env' && ctx.method === 'GET') {
          sendJson(ctx, 200, {
            sandboxUrl: running.url,
            hostedUrl: running.hostedUrl,
            portalScriptUrl: running.portalScriptUrl,
            flakyPortalScriptUrl: `${origin}/_test/flaky-portal.js`,
          });
          return;
        }
        if (path === '/_test/manifest' && ctx.method === 'GET') {
          // The custom-elements manifest of the sources as they are now (what `npm run docs`
          // writes the reference from), for the public-surface test to hold the elements to.
          manifest ??= analyze();
          sendJson(ctx, 200, await manifest);
          return;
        }
        if (path === '/_test/reset' && ctx.method === 'POST') {
          const reset = await sandboxControl('/reset', { method: 'POST' });
          await sandboxControl('/faults', { method: 'DELETE' });
          requests.clear();
          streamsOpened = 0;
          flaky.failing = true;
          flaky.hits = 0;
          sendJson(ctx, reset.ok ? 200 : 502, { reset: reset.ok });
          return;
        }
        if (path === '/_test/stats' && ctx.method === 'GET') {
          sendJson(ctx, 200, {
            requests: Object.fromEntries(requests),
            streamsOpened,
            flakyPortalScript: flaky.hits,
          });
          return;
        }
        if (path === '/_test/flaky-portal' && ctx.method === 'POST') {
          const body = await readBody(ctx);
          const { failing } = JSON.parse(body?.toString('utf8') || '{}') as { failing?: boolean };
          flaky.failing = failing !== false;
          sendJson(ctx, 200, { failing: flaky.failing });
          return;
        }
        if (path === '/_test/flaky-portal.js') {
          // A portal script address that is wrong until a test repairs it: the real script then.
          flaky.hits += 1;
          if (flaky.failing) {
            ctx.status = 404;
            ctx.body = 'not found';
          } else {
            ctx.redirect(running.portalScriptUrl);
          }
          return;
        }
        if (path === '/_test/csp-page.html') {
          // Another tab of the app (frame-entry.ts) served under the Content-Security-Policy the
          // test gives in `?csp=`: the header a strict host sends.
          ctx.status = 200;
          ctx.type = 'text/html';
          ctx.set('cache-control', 'no-store');
          ctx.set('content-security-policy', String(ctx.query.csp ?? ''));
          ctx.body =
            '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>CSP page</title>' +
            '</head><body><main></main>' +
            '<script type="module" src="/test/browser/frame-entry.ts"></script></body></html>';
          return;
        }
        if (path === '/_test/portal.js') {
          ctx.redirect(running.portalScriptUrl);
          return;
        }
        if (path === '/_test/slow-portal.js') {
          // A portal script that answers late: the delay is the subject (the loader's
          // timeouts), so the answer waits it out.
          const delay = Math.min(Number(ctx.query.ms ?? 2000) || 0, 10_000);
          await new Promise((resolve) => setTimeout(resolve, delay));
          ctx.type = 'text/javascript';
          ctx.body =
            'window.SlowPortal = { open() { return Promise.resolve({ opened: true }); } };';
          return;
        }
        if (path.startsWith('/_test/service/')) {
          // The service's own API, as the host's back end calls it (a usage reported meanwhile).
          const body = await readBody(ctx);
          const response = await fetch(
            `${running.url}/v1/${path.slice('/_test/service/'.length)}${ctx.search}`,
            {
              method: ctx.method,
              headers: { authorization: basic, 'content-type': 'application/json' },
              ...(body && body.length > 0 ? { body: new Uint8Array(body) } : {}),
            },
          );
          await sendResponse(ctx, response);
          return;
        }
        if (path.startsWith('/_test/sandbox/')) {
          const body = await readBody(ctx);
          const response = await sandboxControl(
            `/${path.slice('/_test/sandbox/'.length)}${ctx.search}`,
            {
              method: ctx.method,
              ...(body && body.length > 0 ? { body: new Uint8Array(body) } : {}),
            },
          );
          await sendResponse(ctx, response);
          return;
        }
        sendJson(ctx, 404, { error: `no test route ${ctx.method} ${path}` });
      };
      // The dev server composed its Koa middleware when it started listening, so app.use()
      // would come too late: the proxy and test routes take their requests at the HTTP server,
      // still as a Koa context of the same app, and pass every other request on unchanged.
      if (!server)
        throw new Error('browserTestServerPlugin needs the dev server to own its HTTP server');
      const koa = app as typeof app & {
        handleRequest(ctx: Context, middleware: (ctx: Context) => Promise<void>): Promise<void>;
      };
      const ours = (url: string | undefined) => {
        const path = (url ?? '').split('?')[0] ?? '';
        return (
          path.startsWith('/_test/') ||
          mounts.some((mount) => path === mount.basePath || path.startsWith(`${mount.basePath}/`))
        );
      };
      const passOn = server.listeners('request') as ((
        req: IncomingMessage,
        res: ServerResponse,
      ) => void)[];
      server.removeAllListeners('request');
      server.on('request', (req: IncomingMessage, res: ServerResponse) => {
        if (!ours(req.url)) {
          for (const listener of passOn) listener.call(server, req, res);
          return;
        }
        const ctx = koa.createContext(req, res) as Context;
        void koa.handleRequest(ctx, (context) =>
          middleware(context, async () => {
            sendJson(context, 404, { error: 'not found' });
          }),
        );
      });
    },

    async serverStop() {
      await sandbox?.close();
      sandbox = null;
    },
  };
}
