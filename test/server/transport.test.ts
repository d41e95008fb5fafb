// Upstream calls over the default transport (node:http on Node) and over the `fetch` option against the real sandbox and
// against servers that misbehave: whole answers, timeouts, drops, refusals, base URL prefixes.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { UpstreamError } from '../../src/server/errors.js';
import { resolveOptions } from '../../src/server/options.js';
import { createUpstreamClient } from '../../src/server/upstream.js';
import { control, proxyOptions, useSandbox } from './helpers.js';

const sandbox = useSandbox();

const fetches: [string, typeof fetch | undefined][] = [
  ['the default transport', undefined],
  ['a fetch given as an option', (input, init) => fetch(input, init)],
];

/** A started server answering with `listener`; its origin, and a close function. */
async function misbehaving(listener: RequestListener) {
  const server = createServer(listener);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

async function rejectsWith(call: Promise<unknown>, kind: UpstreamError['kind']): Promise<void> {
  await assert.rejects(call, (error: unknown) => {
    assert.ok(error instanceof UpstreamError, String(error));
    assert.equal(error.kind, kind);
    return true;
  });
}

for (const [name, fetchOption] of fetches) {
  describe(`upstream calls over ${name}`, () => {
    const client = (overrides: Parameters<typeof proxyOptions>[1] = {}) =>
      createUpstreamClient(
        resolveOptions(
          proxyOptions(sandbox, {
            limits: { rateLimit: false, upstreamRetries: 0 },
            ...(fetchOption ? { fetch: fetchOption } : {}),
            ...overrides,
          }),
        ),
      );

    it('answers the whole body of a GET, parsed', async () => {
      const usages = await client().usages('healthy');
      assert.equal(usages.length, 5);
      assert.ok(usages.every((usage) => usage.ReferenceCustomer === 'healthy'));
    });

    it('sends a POST body with its length (non-ASCII text included)', async () => {
      const quote = await client().pricing(
        'healthy',
        'seats',
        { increment: 2 },
        { language: 'fr' },
      );
      assert.equal(quote.ReferenceFeature, 'seats');
      assert.match(quote.PricingLocalized, /€|\$|£/);
    });

    it('answers refusals as they are (status and the service’s code)', async () => {
      await assert.rejects(client({ apiKey: 'wrong' }).usages('healthy'), (error: unknown) => {
        assert.ok(error instanceof UpstreamError);
        assert.equal(error.status, 401);
        assert.match(String(error.serviceCode), /^Error\./);
        return true;
      });
    });

    it('gives up at the timeout, not at the answer, and stays usable', async () => {
      await control(sandbox).fault({ route: 'GET /v1/Usages', mode: 'delay', delayMs: 800 });
      const started = Date.now();
      await rejectsWith(client({ timeouts: { upstreamMs: 150 } }).usages('healthy'), 'timeout');
      assert.ok(Date.now() - started < 700, 'gave up at the timeout, not at the answer');
      assert.equal((await client().usages('healthy')).length, 5);
    });

    it('gives up at the timeout while the body is still coming', async () => {
      const { origin, close } = await misbehaving((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        response.write('{"Items":[');
        const drip = setInterval(() => response.write(' '), 50);
        response.on('close', () => clearInterval(drip));
      });
      try {
        const started = Date.now();
        await rejectsWith(
          client({ baseUrl: origin, timeouts: { upstreamMs: 200 } }).usages('healthy'),
          'timeout',
        );
        assert.ok(Date.now() - started < 1000, 'gave up at the timeout, body included');
      } finally {
        await close();
      }
    });

    it('fails as a network error (not a timeout) when the connection drops', async () => {
      await control(sandbox).fault({ route: 'GET /v1/Usages', mode: 'drop-before-apply' });
      await rejectsWith(client().usages('healthy'), 'network');
    });

    it('fails as a network error when nothing listens', async () => {
      const { origin, close } = await misbehaving(() => {});
      await close();
      await rejectsWith(client({ baseUrl: origin }).usages('healthy'), 'network');
    });

    it('fails when the answer is cut short of its declared length', async () => {
      const { origin, close } = await misbehaving((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        // Cut once the first part is on its way to the client.
        response.write('{"Items":[', () => response.destroy());
      });
      try {
        await rejectsWith(client({ baseUrl: origin }).usages('healthy'), 'network');
      } finally {
        await close();
      }
    });

    it('does not follow a redirect: a 3xx is a refusal', async () => {
      const seen: string[] = [];
      const { origin, close } = await misbehaving((request, response) => {
        seen.push(request.url ?? '');
        response.writeHead(302, { location: '/elsewhere' }).end();
      });
      try {
        await assert.rejects(client({ baseUrl: origin }).usages('healthy'), (error: unknown) => {
          assert.ok(error instanceof UpstreamError, String(error));
          assert.equal(error.status, 302);
          return true;
        });
        assert.equal(seen.length, 1, 'the redirect was not followed');
      } finally {
        await close();
      }
    });

    it('calls baseUrl + path, keeping a path prefix of the base URL', async () => {
      const seen: string[] = [];
      const { origin, close } = await misbehaving((request, response) => {
        seen.push(request.url ?? '');
        response.writeHead(204, { date: new Date().toUTCString() }).end();
      });
      try {
        const usages = await client({ baseUrl: `${origin}/billing-api` }).usages('a b');
        assert.deepEqual(usages, []);
        assert.deepEqual(seen, [
          '/billing-api/v1/Usages?ReferenceCustomer=a+b&Page=1&SizePage=1000',
        ]);
      } finally {
        await close();
      }
    });
  });
}
