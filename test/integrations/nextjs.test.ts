// examples/nextjs: the App Router, the proxy as a route (toNextHandlers), isEntitled in a server
// component, the elements in a client component; built with no billing variable, and started
// behind a reverse proxy that sets another Host and X-Forwarded-Host.
import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { test } from 'node:test';
import { billingEnv, freePort, proveBilling, startProcess, useExample } from './harness.js';

const run = useExample('nextjs');
let buildOutput: string;

/**
 * A reverse proxy as deployments have one (nginx, a load balancer): the app behind it sees an
 * internal Host, and the public one in X-Forwarded-Host and X-Forwarded-Proto.
 */
async function reverseProxy(port: number, upstreamPort: number): Promise<Server> {
  const server = createServer((incoming, outgoing) => {
    const forwarded = httpRequest(
      {
        host: '127.0.0.1',
        port: upstreamPort,
        method: incoming.method,
        path: incoming.url,
        headers: {
          ...incoming.headers,
          host: `run.app.internal:${upstreamPort}`,
          'x-forwarded-host': incoming.headers.host,
          'x-forwarded-proto': 'http',
        },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.writeHead(502).end());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

test('Next.js: `next build` passes with no billing variable set', async () => {
  buildOutput = await run.app.exec('node', ['node_modules/next/dist/bin/next', 'build']);
  assert.match(buildOutput, /ƒ \/billing\/\[\.\.\.path\]/, 'the billing route is dynamic');
  // On CI (the CI variable set) Next.js adds a notice about its own build cache: not ours.
  const ours = buildOutput
    .split('\n')
    .filter((line) => !line.includes('No build cache found'))
    .join('\n');
  assert.doesNotMatch(ours, /billing proxy|Error|⚠/i);
});

test('Next.js: `next start` behind a reverse proxy with another Host', async () => {
  assert.ok(buildOutput, 'built by the previous test');
  const port = await freePort();
  const next = await startProcess(
    run.app,
    'node',
    ['node_modules/next/dist/bin/next', 'start', '--port', String(port), '--hostname', '127.0.0.1'],
    { env: billingEnv(run.sandbox), readyUrl: `http://127.0.0.1:${port}/billing/nothing` },
  );
  const publicPort = await freePort();
  const proxy = await reverseProxy(publicPort, port);
  try {
    const url = `http://127.0.0.1:${publicPort}/`;
    await proveBilling(run.browser, run.sandbox, url, {
      before: async (page) => {
        // The server component's isEntitled: the healthy customer's plan includes SSO.
        const html = await (await page.request.get(url)).text();
        assert.match(html, /Single sign-on: (<!-- -->)?included in your plan/);
      },
    });
    // Neither the server component nor the route made Next.js warn or fail.
    assert.doesNotMatch(next.output(), /Error|⚠|warn/i, next.output());
  } finally {
    await new Promise((resolve) => proxy.close(resolve));
    await next.stop();
  }
});

test('Next.js: `next start` without the billing variables says so at start', async () => {
  const port = await freePort();
  const next = await startProcess(
    run.app,
    'node',
    ['node_modules/next/dist/bin/next', 'start', '--port', String(port), '--hostname', '127.0.0.1'],
    { readyUrl: `http://127.0.0.1:${port}/billing/usages`, anyStatus: true },
  );
  try {
    // instrumentation.ts checked the options when the server started: Next.js names every
    // problem and answers 500 to every request until the variables are there.
    assert.match(next.output(), /Invalid billing proxy options:\n - baseUrl is required/);
    assert.match(next.output(), / - portalSecret is required/);
    const answer = await fetch(`http://127.0.0.1:${port}/`);
    assert.equal(answer.status, 500);
  } finally {
    await next.stop();
  }
});
