// examples/strict-csp: a page under a strict Content-Security-Policy with require-trusted-types-for 'script'.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import {
  billingEnv,
  freePort,
  installExample,
  launchBrowser,
  proveBilling,
  startProcess,
  startSandboxOf,
  type InstalledApp,
  type Sandbox,
} from './harness.js';

let app: InstalledApp;
let sandbox: Sandbox;
let browser: Browser;

before(async () => {
  app = await installExample('strict-csp');
  sandbox = await startSandboxOf(app);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await sandbox?.close();
  app?.remove();
});

test('strict CSP and Trusted Types: meters, a purchase and the portal, no violation', async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const server = await startProcess(app, 'node', ['server.js'], {
    env: { ...billingEnv(sandbox), PORT: String(port) },
    readyUrl: url,
  });
  try {
    // The page is really served under the policy (else this test would prove nothing).
    const policy = (await fetch(url)).headers.get('content-security-policy') ?? '';
    assert.match(policy, /require-trusted-types-for 'script'/);
    assert.match(policy, /default-src 'none'/);
    await proveBilling(browser, sandbox, url);
  } finally {
    await server.stop();
  }
});
