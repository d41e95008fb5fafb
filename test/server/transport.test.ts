// The two upstream transports (node:http, the default; and any fetch) against the real sandbox:
// they must answer the same, time out the same and fail the same.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createNodeTransport } from '../../src/server/node-transport.js';
import { fetchTransport, type Transport, type UpstreamCall } from '../../src/server/transport.js';
import { control, startSandbox, type RunningSandbox } from './helpers.js';

let sandbox: RunningSandbox;
before(async () => {
  sandbox = await startSandbox();
});
after(() => sandbox.close());
beforeEach(async () => {
  await control(sandbox).clearFaults();
  await control(sandbox).reset();
});

const transports: [string, (baseUrl: string) => Transport][] = [
  ['node:http transport', (baseUrl) => createNodeTransport(baseUrl)],
  ['fetch transport', (baseUrl) => fetchTransport(globalThis.fetch, baseUrl)],
];

function authorization(): string {
  return `Basic ${Buffer.from(`${sandbox.agentKey}:${sandbox.apiKey}`).toString('base64')}`;
}

function usagesCall(overrides: Partial<UpstreamCall> = {}): UpstreamCall {
  return {
    method: 'GET',
    path: '/v1/Usages?ReferenceCustomer=healthy&Page=1&SizePage=1000',
    headers: { authorization: authorization(), accept: 'application/json' },
    body: null,
    timeoutMs: 5000,
    ...overrides,
  };
}

for (const [name, make] of transports) {
  describe(name, () => {
    it('answers the status and the whole body of a GET', async () => {
      const answer = await make(sandbox.apiUrl)(usagesCall());
      assert.equal(answer.status, 200);
      const page = JSON.parse(answer.text) as { Items: { ReferenceCustomer: string }[] };
      assert.equal(page.Items.length, 5);
      assert.ok(page.Items.every((usage) => usage.ReferenceCustomer === 'healthy'));
    });

    it('sends a POST body with its length (non-ASCII text included)', async () => {
      const answer = await make(sandbox.apiUrl)({
        method: 'POST',
        path: '/v1/Pricing/Usage',
        headers: {
          authorization: authorization(),
          'content-type': 'application/json',
          'accept-language': 'fr',
        },
        body: JSON.stringify({
          ReferenceCustomer: 'healthy',
          ReferenceFeature: 'seats',
          Increment: 2,
          NextTerm: true,
          Note: 'équipe ✓',
        }),
        timeoutMs: 5000,
      });
      assert.equal(answer.status, 200, answer.text);
      assert.equal(
        (JSON.parse(answer.text) as { ReferenceFeature: string }).ReferenceFeature,
        'seats',
      );
    });

    it('answers refusals as they are (status and error body)', async () => {
      const answer = await make(sandbox.apiUrl)(
        usagesCall({ headers: { authorization: 'Basic d3Jvbmc6d3Jvbmc=' } }),
      );
      assert.equal(answer.status, 401);
      assert.match(answer.text, /"Code"/);
    });

    it('rejects with a TimeoutError when the answer is later than timeoutMs', async () => {
      await control(sandbox).fault({ route: 'GET /v1/Usages', mode: 'delay', delayMs: 800 });
      const started = Date.now();
      await assert.rejects(make(sandbox.apiUrl)(usagesCall({ timeoutMs: 150 })), {
        name: 'TimeoutError',
      });
      assert.ok(Date.now() - started < 700, 'gave up at the timeout, not at the answer');
      // The transport stays usable after a timeout.
      assert.equal((await make(sandbox.apiUrl)(usagesCall())).status, 200);
    });

    it('rejects with a network error (not a timeout) when the connection drops', async () => {
      await control(sandbox).fault({ route: 'GET /v1/Usages', mode: 'drop-before-apply' });
      await assert.rejects(make(sandbox.apiUrl)(usagesCall()), (error: Error) => {
        assert.notEqual(error.name, 'TimeoutError');
        return true;
      });
    });

    it('rejects with a network error when nothing listens', async () => {
      const closed = createServer();
      closed.listen(0, '127.0.0.1');
      await once(closed, 'listening');
      const port = (closed.address() as AddressInfo).port;
      closed.close();
      await once(closed, 'close');
      await assert.rejects(make(`http://127.0.0.1:${port}`)(usagesCall()), (error: Error) => {
        assert.notEqual(error.name, 'TimeoutError');
        return true;
      });
    });

    it('rejects when the answer is cut short of its declared length', async () => {
      const server = createServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        response.write('{"Items":[');
        setTimeout(() => response.destroy(), 20);
      });
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      try {
        const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        await assert.rejects(make(baseUrl)(usagesCall()), (error: Error) => {
          assert.notEqual(error.name, 'TimeoutError');
          return true;
        });
      } finally {
        server.close();
      }
    });

    it('calls baseUrl + path, keeping a path prefix of the base URL', async () => {
      const seen: string[] = [];
      const server = createServer((request, response) => {
        seen.push(request.url ?? '');
        response.writeHead(204).end();
      });
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      try {
        const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/billing-api`;
        const answer = await make(baseUrl)(
          usagesCall({ path: '/v1/Usages?ReferenceCustomer=a%20b' }),
        );
        assert.deepEqual({ status: answer.status, text: answer.text }, { status: 204, text: '' });
        assert.ok(!Number.isNaN(Date.parse(answer.date ?? '')), 'the Date header is passed on');
        assert.deepEqual(seen, ['/billing-api/v1/Usages?ReferenceCustomer=a%20b']);
      } finally {
        server.close();
      }
    });
  });
}
