// The Node adapter's light Request (method, url and headers from node:http; anything else from
// a real Request made on first use) and its direct body read, over real HTTP.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import express from 'express';
import {
  createBillingProxy,
  toExpressMiddleware,
  toNodeHandler,
  type BillingProxy,
  type BillingProxyOptions,
} from '../../src/server/index.js';
import {
  identifyFromCookie,
  proxyOptions,
  startSandbox,
  type RunningSandbox,
  assertStillServes,
  collectingLogger,
  listen,
  rawPricingPost,
} from './helpers.js';

/** The runtime's own Request class, before any listener replaces the global one. */
const RuntimeRequest = globalThis.Request;

/** A POST whose body goes out in the given pieces, each in its own write. */
function postInPieces(url: string, pieces: Buffer[]): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, {
      method: 'POST',
      headers: {
        cookie: 'session=healthy',
        origin: new URL(url).origin,
        'content-type': 'application/json',
        'transfer-encoding': 'chunked',
      },
    });
    outgoing.on('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
    });
    outgoing.on('error', reject);
    let index = 0;
    const next = () => {
      const piece = pieces[index++];
      if (piece === undefined) outgoing.end();
      else outgoing.write(piece, () => setTimeout(next, 5));
    };
    next();
  });
}

describe('Node adapter: the light Request', () => {
  let sandbox: RunningSandbox;
  const servers: Server[] = [];

  before(async () => {
    sandbox = await startSandbox();
  });
  after(async () => {
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
    await sandbox.close();
  });

  async function serve(
    options: Partial<BillingProxyOptions>,
    wrap?: (proxy: BillingProxy) => BillingProxy,
  ) {
    const proxy = createBillingProxy(proxyOptions(sandbox, options));
    const server = createServer(toNodeHandler(wrap ? wrap(proxy) : proxy));
    servers.push(server);
    return listen(server);
  }

  it('gives identify a Request that behaves as one (headers, clone, signal, a body already read)', async () => {
    const seen: Record<string, unknown> = {};
    const origin = await serve({
      identify: async (request) => {
        seen.isRequest = request instanceof Request;
        seen.tag = Object.prototype.toString.call(request);
        seen.method = request.method;
        seen.url = request.url;
        seen.cookie = request.headers.get('cookie');
        seen.custom = request.headers.get('x-custom');
        seen.signalAborted = request.signal.aborted;
        seen.bodyUsed = request.bodyUsed;
        try {
          request.clone();
          seen.clone = 'cloned';
        } catch (error) {
          seen.clone = (error as Error).name;
        }
        await request.text().then(
          () => (seen.read = 'read again'),
          (error: Error) => (seen.read = error.name),
        );
        return identifyFromCookie(request);
      },
    });
    const response = await fetch(`${origin}/billing/pricing`, {
      method: 'POST',
      headers: {
        cookie: 'session=healthy',
        origin,
        'content-type': 'application/json',
        'x-custom': 'a, b',
      },
      body: JSON.stringify({ feature: 'seats', increment: 1 }),
    });
    assert.equal(response.status, 200, await response.text());
    assert.deepEqual(seen, {
      isRequest: true,
      tag: '[object Request]',
      method: 'POST',
      url: `${origin}/billing/pricing`,
      cookie: 'session=healthy',
      custom: 'a, b',
      signalAborted: false,
      // The proxy read the body before identify, as with any Request: it cannot be read again.
      bodyUsed: true,
      clone: 'TypeError',
      read: 'TypeError',
    });
  });

  it('lets a GET Request be cloned and read like a real one', async () => {
    const seen: unknown[] = [];
    const origin = await serve({
      identify: async (request) => {
        const copy = request.clone();
        // A real Request of the runtime's class (the adapter's lightweight globals extend it).
        seen.push(
          copy instanceof RuntimeRequest,
          copy.url,
          copy.headers.get('cookie'),
          await copy.text(),
        );
        return identifyFromCookie(request);
      },
    });
    const response = await fetch(`${origin}/billing/usages`, {
      headers: { cookie: 'session=healthy' },
    });
    assert.equal(response.status, 200);
    assert.deepEqual(seen, [true, `${origin}/billing/usages`, 'session=healthy', '']);
  });

  it('reads the body through the real Request when host code used it first', async () => {
    const logged: string[] = [];
    const origin = await serve({}, (proxy) => ({
      ...proxy,
      handler: async (request) => {
        logged.push(await request.clone().text());
        return proxy.handler(request);
      },
    }));
    const body = JSON.stringify({ feature: 'seats', increment: 2 });
    const response = await fetch(`${origin}/billing/pricing`, {
      method: 'POST',
      headers: { cookie: 'session=healthy', origin, 'content-type': 'application/json' },
      body,
    });
    assert.equal(response.status, 200, await response.text());
    assert.deepEqual(logged, [body]);
  });

  it('joins a body sent in several writes, a UTF-8 character split across two of them', async () => {
    const origin = await serve({});
    const body = Buffer.from('{"feature":"seats","increment":1,"note":"équipe"}');
    const split = body.indexOf(Buffer.from('é')) + 1; // inside the two bytes of "é"
    const { status, text } = await postInPieces(`${origin}/billing/pricing`, [
      body.subarray(0, 10),
      body.subarray(10, split),
      body.subarray(split),
    ]);
    // Parsed whole: the only refusal is the unknown field, named.
    assert.equal(status, 400, text);
    assert.match(text, /Unknown field \\?"note\\?"/);
    const valid = Buffer.from('{"feature":"seats","increment":1}');
    const answer = await postInPieces(`${origin}/billing/pricing`, [
      valid.subarray(0, 7),
      valid.subarray(7),
    ]);
    assert.equal(answer.status, 200, answer.text);
  });

  it('refuses invalid UTF-8 and an empty body as the core does for any Request', async () => {
    const origin = await serve({});
    const invalid = await postInPieces(`${origin}/billing/pricing`, [
      Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]),
    ]);
    assert.equal(invalid.status, 400);
    assert.match(invalid.text, /not valid UTF-8/);
    const empty = await postInPieces(`${origin}/billing/pricing`, []);
    assert.equal(empty.status, 400);
    assert.match(empty.text, /A JSON body is required/);
  });

  it('keeps the body cap after express.json() parsed a body larger than it', async () => {
    const app = express();
    app.use(express.json({ limit: '1mb' }));
    app.use(toExpressMiddleware(createBillingProxy(proxyOptions(sandbox))));
    const server = createServer(app);
    servers.push(server);
    const origin = await listen(server);
    const send = (pad: number) =>
      fetch(`${origin}/billing/pricing`, {
        method: 'POST',
        headers: { cookie: 'session=healthy', origin, 'content-type': 'application/json' },
        body: JSON.stringify({
          feature: 'seats',
          increment: 1,
          ...(pad ? { pad: 'x'.repeat(pad) } : {}),
        }),
      });
    assert.equal((await send(20_000)).status, 413);
    assert.equal((await send(0)).status, 200);
  });

  it('keeps serving after a client drops in the middle of a body', async () => {
    const origin = await serve({});
    await new Promise<void>((resolve) => {
      const outgoing = rawPricingPost(origin, { 'content-length': '100' });
      outgoing.on('error', () => resolve());
      outgoing.write('{"feature":"seats"', () => setTimeout(() => outgoing.destroy(), 20));
      outgoing.on('close', () => resolve());
    });
    await assertStillServes(origin);
  });

  for (const [how, framing, body] of [
    ['a short Content-Length', { 'content-length': '100' }, '{"feature":"seats"'],
    ['broken chunking', { 'transfer-encoding': 'chunked' }, '{"feature":"seats"'],
  ] as const) {
    it(`logs a client that aborts mid-body (${how}) as a client abort, not an internal error`, async () => {
      const { logger, entries } = collectingLogger();
      const origin = await serve({ logger });
      await new Promise<void>((resolve) => {
        const outgoing = rawPricingPost(origin, framing);
        outgoing.on('error', () => resolve());
        outgoing.write(body, () => setTimeout(() => outgoing.destroy(), 20));
        outgoing.on('close', () => resolve());
      });
      const deadline = Date.now() + 2_000;
      while (!entries.some((entry) => entry.event === 'client-aborted') && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      const aborted = entries.find((entry) => entry.event === 'client-aborted');
      assert.equal(aborted?.level, 'info');
      assert.equal(entries.filter((entry) => entry.event === 'internal-error').length, 0);
      await assertStillServes(origin);
    });
  }
});

describe('Node adapter: the process globals', () => {
  // The listener could replace globals for the whole process: each case runs in a fresh one,
  // which mounts the proxy, serves a request through it, then fetches as the host app would.
  async function globalsAfter(
    handlerOptions: string,
  ): Promise<{ request: boolean; response: boolean; fetched: boolean; served: number }> {
    const server = fileURLToPath(new URL('../../src/server/index.ts', import.meta.url));
    const script = `
      import { createServer } from 'node:http';
      const [Request, Response] = [globalThis.Request, globalThis.Response];
      const { createBillingProxy, toNodeHandler } = await import(${JSON.stringify(server)});
      const proxy = createBillingProxy({
        baseUrl: 'http://127.0.0.1:9', agentKey: 'agent', apiKey: 'key', businessId: 1,
        segment: 'main', portalScriptUrl: 'http://127.0.0.1:9/portal.js',
        portalSecret: 'a-portal-secret-of-enough-length', identify: () => null,
      });
      const http = createServer(toNodeHandler(proxy, ${handlerOptions}));
      await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
      const url = 'http://127.0.0.1:' + http.address().port + '/usages';
      const answer = await fetch(url);
      const fetched = (await fetch(url)) instanceof Response && answer instanceof globalThis.Response;
      console.log(JSON.stringify({
        request: globalThis.Request === Request, response: globalThis.Response === Response,
        fetched, served: answer.status,
      }));
      http.close();
      await proxy.close();`;
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--import',
      'tsx',
      '--input-type=module',
      '--eval',
      script,
    ]);
    return JSON.parse(stdout) as {
      request: boolean;
      response: boolean;
      fetched: boolean;
      served: number;
    };
  }

  it("leaves the host app's Request and Response alone by default", async () => {
    // Signed out: the proxy answered (401), so the adapter was loaded and serving.
    assert.deepEqual(await globalsAfter('{}'), {
      request: true,
      response: true,
      fetched: true,
      served: 401,
    });
  });

  it('installs the light Request and Response only when asked (overrideGlobalObjects)', async () => {
    const after = await globalsAfter('{ overrideGlobalObjects: true }');
    assert.equal(after.served, 401);
    assert.equal(after.request, false);
    assert.equal(after.response, false);
  });
});
