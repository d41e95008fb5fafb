// The Node adapter's light Request (method, url and headers from node:http; anything else from
// a real Request made on first use), its direct body read and how it writes answers, over real
// HTTP.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect } from 'node:net';
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
import { waitFor } from '../time.js';

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
      // A pause after each piece, so that each reaches the server on its own (a slow client).
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
      // Dropped once the start of the body is on its way.
      outgoing.write('{"feature":"seats"', () => outgoing.destroy());
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
        outgoing.write(body, () => outgoing.destroy());
        outgoing.on('close', () => resolve());
      });
      await waitFor(
        () => entries.some((entry) => entry.event === 'client-aborted'),
        'the abort to be logged',
      );
      const aborted = entries.find((entry) => entry.event === 'client-aborted');
      assert.equal(aborted?.level, 'info');
      assert.equal(entries.filter((entry) => entry.event === 'internal-error').length, 0);
      await assertStillServes(origin);
    });
  }
});

/** Sends `head` (request line and headers) over a raw socket; resolves with all it got back. */
function rawExchange(origin: string, head: string): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(head));
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

describe('Node adapter: answers and the connection', () => {
  let sandbox: RunningSandbox;
  const servers: Server[] = [];
  const proxies: BillingProxy[] = [];

  before(async () => {
    sandbox = await startSandbox();
  });
  after(async () => {
    for (const proxy of proxies) await proxy.close();
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    await sandbox.close();
  });

  async function serve(
    options: Partial<BillingProxyOptions>,
    wrap?: (proxy: BillingProxy) => BillingProxy,
  ) {
    const proxy = createBillingProxy(proxyOptions(sandbox, options));
    proxies.push(proxy);
    const server = createServer(toNodeHandler(wrap ? wrap(proxy) : proxy));
    servers.push(server);
    return listen(server);
  }

  it('streams events as they come, and ends the stream on the server when the client goes away', async () => {
    const origin = await serve({ events: { maxStreams: 1 } });
    const open = (signal?: AbortSignal) =>
      fetch(`${origin}/billing/events`, { headers: { cookie: 'session=healthy' }, signal });
    const controller = new AbortController();
    const first = await open(controller.signal);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('content-type'), 'text/event-stream; charset=utf-8');
    assert.equal(first.headers.get('content-length'), null);
    const reader = first.body!.getReader();
    assert.match(new TextDecoder().decode((await reader.read()).value), /^retry: \d+/);
    // The one stream this instance may hold is taken.
    const refused = await open();
    assert.equal(refused.status, 503);
    await refused.body?.cancel();
    controller.abort();
    // Closing the connection gave the place back.
    const again = await waitFor(async () => {
      const answer = await open();
      if (answer.status === 200) return answer;
      await answer.body?.cancel();
      return undefined;
    }, 'the place to be given back');
    assert.equal(again.status, 200);
    await again.body?.cancel();
  });

  it("aborts the request's signal when the client goes away before the answer", async () => {
    let aborted: () => void = () => {};
    const abortSeen = new Promise<void>((resolve) => (aborted = resolve));
    let identifyStarted: () => void = () => {};
    const started = new Promise<void>((resolve) => (identifyStarted = resolve));
    const origin = await serve({
      identify: (request) =>
        new Promise((resolve) => {
          identifyStarted();
          request.signal.addEventListener('abort', () => {
            aborted();
            resolve(null);
          });
        }),
    });
    const controller = new AbortController();
    const pending = fetch(`${origin}/billing/usages`, {
      headers: { cookie: 'session=healthy' },
      signal: controller.signal,
    }).catch((error: unknown) => error);
    await started;
    controller.abort();
    assert.equal(((await pending) as Error).name, 'AbortError');
    await Promise.race([
      abortSeen,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error('the signal was not aborted')), 3_000),
      ),
    ]);
  });

  it('reads repeated request headers as a Headers joins them', async () => {
    const seen: unknown[] = [];
    const origin = await serve({
      identify: (request) => {
        seen.push(
          request.headers.get('x-multi'),
          request.headers.get('cookie'),
          request.headers.get('accept'),
          request.headers.has('X-MULTI'),
          request.headers.get('x-absent'),
          [...request.headers].filter(([name]) => name.startsWith('x-')),
        );
        return identifyFromCookie(request);
      },
    });
    const status = await new Promise<number>((resolve, reject) => {
      const outgoing = httpRequest(`${origin}/billing/usages`, {
        headers: {
          'x-multi': ['a', 'b'],
          cookie: ['session=healthy', 'theme=dark'],
          // Kept once by node:http's own header map, joined by a Headers.
          accept: 'application/json',
        },
      });
      outgoing.setHeader('accept', ['application/json', 'text/plain']);
      outgoing.on('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      outgoing.on('error', reject);
      outgoing.end();
    });
    assert.equal(status, 200);
    assert.deepEqual(seen, [
      'a, b',
      'session=healthy; theme=dark',
      'application/json, text/plain',
      true,
      null,
      [['x-multi', 'a, b']],
    ]);
  });

  it("writes every Set-Cookie of a host's Response, and its body", async () => {
    const origin = await serve({}, (proxy) => ({
      ...proxy,
      handler: async (request) => {
        const answer = await proxy.handler(request);
        const headers = new Headers(answer.headers);
        headers.append('set-cookie', 'seen=1; Path=/');
        headers.append('set-cookie', 'again=2; Path=/');
        return new Response(answer.body, { status: answer.status, headers });
      },
    }));
    const { status, cookies, text } = await new Promise<{
      status: number;
      cookies: string[] | undefined;
      text: string;
    }>((resolve, reject) => {
      const outgoing = httpRequest(`${origin}/billing/usages`, {
        headers: { cookie: 'session=healthy' },
      });
      outgoing.on('response', (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            cookies: response.headers['set-cookie'],
            text,
          }),
        );
      });
      outgoing.on('error', reject);
      outgoing.end();
    });
    assert.equal(status, 200);
    assert.deepEqual(cookies, ['seen=1; Path=/', 'again=2; Path=/']);
    assert.equal((JSON.parse(text) as { usages: unknown[] }).usages.length, 5);
  });

  it("sends no body to HEAD, whether the answer is the proxy's own or a Response", async () => {
    const plain = await serve({});
    const wrapped = await serve({}, (proxy) => ({
      ...proxy,
      handler: async (request) => {
        const answer = await proxy.handler(request);
        return new Response(answer.body, answer);
      },
    }));
    for (const origin of [plain, wrapped]) {
      const text = await rawExchange(
        origin,
        `HEAD /billing/usages HTTP/1.1\r\nHost: ${new URL(origin).host}\r\nCookie: session=healthy\r\nConnection: close\r\n\r\n`,
      );
      // GET only: 405, its headers and nothing after them.
      assert.match(text, /^HTTP\/1\.1 405 /);
      assert.match(text, /\r\nallow: GET, OPTIONS\r\n/i);
      assert.ok(text.endsWith('\r\n\r\n'), `no body after the headers:\n${text}`);
    }
  });

  it('reads the URL as a browser does: a Host in capitals, a default port', async () => {
    const urls: string[] = [];
    const origin = await serve({
      identify: (request) => {
        urls.push(request.url);
        return identifyFromCookie(request);
      },
    });
    const status = await new Promise<number>((resolve, reject) => {
      const outgoing = httpRequest(`${origin}/billing/pricing`, {
        method: 'POST',
        headers: {
          host: 'App.Example:80',
          origin: 'http://app.example',
          cookie: 'session=healthy',
          'content-type': 'application/json',
        },
      });
      outgoing.on('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      outgoing.on('error', reject);
      outgoing.end(JSON.stringify({ feature: 'seats', increment: 1 }));
    });
    // Same origin once the URL is read as a URL: the Origin check passes.
    assert.equal(status, 200);
    assert.deepEqual(urls, ['http://app.example/billing/pricing']);
  });

  it('answers 400 to a request without a Host to build its URL from', async () => {
    const origin = await serve({});
    const text = await rawExchange(origin, 'GET /billing/usages HTTP/1.0\r\n\r\n');
    assert.match(text, /^HTTP\/1\.1 400 /);
    assert.match(text, /Invalid request URL/);
  });
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

  it("leaves the host app's Request, Response and fetch alone", async () => {
    // Signed out: the proxy answered (401), so the adapter was loaded and serving.
    assert.deepEqual(await globalsAfter('{}'), {
      request: true,
      response: true,
      fetched: true,
      served: 401,
    });
  });
});
