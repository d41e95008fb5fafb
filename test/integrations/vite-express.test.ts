// examples/vite-express: a Vite + TypeScript single-page app with an Express API, run as the
// developer runs it (Vite's dev server forwarding /billing with `server.proxy`, which rewrites
// Host) and as it is deployed (`vite build`, the files served by Express).
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
  app = await installExample('vite-express');
  sandbox = await startSandboxOf(app);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await sandbox?.close();
  app?.remove();
});

test('Vite + Express: `vite` dev server with server.proxy to `node server.js`', async () => {
  const apiPort = await freePort();
  const api = await startProcess(app, 'node', ['server.js'], {
    env: { ...billingEnv(sandbox), PORT: String(apiPort) },
    readyUrl: `http://127.0.0.1:${apiPort}/billing/nothing`,
  });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const vite = await startProcess(
    app,
    'node',
    [
      'node_modules/vite/bin/vite.js',
      '--port',
      String(port),
      '--strictPort',
      '--host',
      '127.0.0.1',
    ],
    { env: { API_PORT: String(apiPort) }, readyUrl: url },
  );
  try {
    await proveBilling(browser, sandbox, url);
  } finally {
    await vite.stop();
    await api.stop();
  }
});

test('Vite + Express: `tsc && vite build`, served by `node server.js`', async () => {
  // Built without any billing variable: the browser bundle needs none.
  await app.exec('npm', ['run', 'build']);
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
