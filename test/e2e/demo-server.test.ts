// The demo host app's server side: its own sessions, the proxy's identify() reading them, and
// `npm start` (address printed, busy port skipped, clean stop on SIGTERM).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import type { SubscriptionStatusResponse } from '../../src/index.js';
import { SCENARIOS } from '../../demo/customers.js';
import { scenarioState } from '../../demo/scenario-state.js';
import { startDemo, type DemoServer } from '../../demo/server.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let demo: DemoServer;

before(async () => {
  demo = await startDemo({
    port: 0,
    strictPort: true,
    logLevel: 'silent',
    watch: false,
    prebuildScriptTag: false,
  });
});

after(async () => {
  await demo?.close();
});

async function signInCookie(reference: string): Promise<string> {
  const response = await fetch(`${demo.url}/session/sign-in`, {
    method: 'POST',
    body: new URLSearchParams({ customer: reference, next: '/app/billing' }),
    redirect: 'manual',
  });
  assert.equal(response.status, 303);
  assert.equal(response.headers.get('location'), '/app/billing');
  const cookie = response.headers.get('set-cookie') ?? '';
  assert.match(cookie, /HttpOnly/);
  assert.match(cookie, /SameSite=Lax/);
  return cookie.split(';')[0]!;
}

test('pages need a session, and the billing proxy takes the customer from it', async () => {
  const anonymous = await fetch(`${demo.url}/app/`, { redirect: 'manual' });
  assert.equal(anonymous.status, 303);
  assert.equal(anonymous.headers.get('location'), '/?next=%2Fapp%2F');
  assert.equal((await fetch(`${demo.url}/billing/usages`)).status, 401);

  const cookie = await signInCookie('starter-plan');
  const page = await fetch(`${demo.url}/app/`, { headers: { cookie } });
  assert.equal(page.status, 200);
  assert.match(await page.text(), /Stella Starter/);
  const usages = await fetch(`${demo.url}/billing/usages`, { headers: { cookie } });
  assert.equal(usages.status, 200);
  const body = (await usages.json()) as { usages: { ReferenceCustomer: string }[] };
  assert.ok(body.usages.length > 0);
  assert.ok(body.usages.every((usage) => usage.ReferenceCustomer === 'starter-plan'));
});

test('each sample customer’s note names the state the proxy reads for it at the start', async () => {
  // The page hides a note whose state no longer holds (demo/src/app.ts): each note must match
  // its customer's fixture as the proxy reads it, or it would never show. No test of this file
  // changes a subscription.
  for (const scenario of SCENARIOS) {
    const cookie = await signInCookie(scenario.reference);
    const response = await fetch(`${demo.url}/billing/subscription`, { headers: { cookie } });
    assert.equal(response.status, 200, scenario.reference);
    const live = (await response.json()) as SubscriptionStatusResponse;
    assert.equal(scenarioState(live), scenario.startsAs, scenario.reference);
    const page = await (await fetch(`${demo.url}/app/`, { headers: { cookie } })).text();
    assert.match(page, new RegExp(`data-scenario="${scenario.startsAs}"`), scenario.reference);
  }
});

test('a session cookie edited to name another customer is refused', async () => {
  const cookie = await signInCookie('starter-plan');
  const forged = cookie.replace('nw_session=starter-plan.', 'nw_session=unlimited.');
  assert.notEqual(forged, cookie);
  assert.equal(
    (await fetch(`${demo.url}/billing/usages`, { headers: { cookie: forged } })).status,
    401,
  );
  const page = await fetch(`${demo.url}/app/`, { headers: { cookie: forged }, redirect: 'manual' });
  assert.equal(page.status, 303);
});

test('sign-in refuses unknown customers, other sites as next page, and cross-site posts', async () => {
  const unknown = await fetch(`${demo.url}/session/sign-in`, {
    method: 'POST',
    body: new URLSearchParams({ customer: 'nobody' }),
    redirect: 'manual',
  });
  assert.equal(unknown.status, 303);
  assert.equal(unknown.headers.get('location'), '/');
  assert.equal(unknown.headers.get('set-cookie'), null);

  const offsite = await fetch(`${demo.url}/session/sign-in`, {
    method: 'POST',
    body: new URLSearchParams({ customer: 'healthy', next: 'https://evil.example/' }),
    redirect: 'manual',
  });
  assert.equal(offsite.headers.get('location'), '/app/');

  const crossSite = await fetch(`${demo.url}/session/sign-in`, {
    method: 'POST',
    headers: { origin: 'https://evil.example' },
    body: new URLSearchParams({ customer: 'healthy' }),
    redirect: 'manual',
  });
  assert.equal(crossSite.status, 403);
  assert.equal(crossSite.headers.get('set-cookie'), null);
});

function occupyPort(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

test('npm start prints the address, skips a busy port, allows the origins given and stops cleanly on SIGTERM', async () => {
  const busy = await occupyPort();
  const busyPort = (busy.address() as { port: number }).port;
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'scripts/start.ts',
      '--port',
      String(busyPort),
      '--sandbox-port',
      '0',
      '--allow-origin',
      'https://shop.example',
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`npm start printed no address:\n${output}`)),
        60_000,
      );
      const look = () => {
        const match = /Open\s+(http:\/\/127\.0\.0\.1:\d+)\//.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      };
      child.stdout.on('data', look);
      child.on('exit', () => reject(new Error(`npm start exited:\n${output}`)));
    });
    assert.notEqual(new URL(url).port, String(busyPort));
    assert.match(output, new RegExp(`port ${busyPort} was busy`));
    assert.match(output, /Sandbox\s+http:\/\/127\.0\.0\.1:\d+/);
    assert.match(output, /Control API\s+http:\/\/127\.0\.0\.1:\d+\/_sandbox\//);
    const signIn = await fetch(`${url}/`);
    assert.equal(signIn.status, 200);
    assert.match(await signIn.text(), /Sign in/);
    // --allow-origin: a page on that origin may call the billing proxy with credentials.
    assert.match(output, /also for https:\/\/shop\.example/);
    const crossOrigin = await fetch(`${url}/billing/usages`, {
      headers: { origin: 'https://shop.example' },
    });
    assert.equal(crossOrigin.status, 401, 'allowed, and asked to sign in');
    assert.equal(crossOrigin.headers.get('access-control-allow-origin'), 'https://shop.example');
    assert.equal(crossOrigin.headers.get('access-control-allow-credentials'), 'true');
    // Its POSTs' preflight is the proxy's answer (with credentials), not Vite's own CORS one.
    const preflight = await fetch(`${url}/billing/pricing`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), 'https://shop.example');
    assert.equal(preflight.headers.get('access-control-allow-credentials'), 'true');
    // The snippet's module script may run on that origin's pages.
    const module = await fetch(`${url}/cdn/usage-meter.js`, {
      headers: { origin: 'https://shop.example' },
    });
    assert.equal(module.headers.get('access-control-allow-origin'), '*');

    child.kill('SIGTERM');
    assert.equal(await exited, 0);
    await assert.rejects(fetch(`${url}/`), 'the server is closed');
  } finally {
    child.kill('SIGKILL');
    busy.close();
  }
});
