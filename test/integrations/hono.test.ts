// examples/hono: the proxy as a Hono route on @hono/node-server, the page on the per-element modules.
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
  app = await installExample('hono');
  sandbox = await startSandboxOf(app);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await sandbox?.close();
  app?.remove();
});

test('Hono on Node: `node server.js` serves the page and the proxy', async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const server = await startProcess(app, 'node', ['server.js'], {
    env: { ...billingEnv(sandbox), PORT: String(port) },
    readyUrl: url,
  });
  try {
    await proveBilling(browser, sandbox, url);
  } finally {
    await server.stop();
  }
});
