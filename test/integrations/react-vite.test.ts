// examples/react-vite: React 19 + Vite in TSX, type-checked strictly against the package's JSX
// typings, built without billing variables, and served by `vite preview` with the proxy mounted
// by billingProxyVitePlugin.
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
  app = await installExample('react-vite');
  sandbox = await startSandboxOf(app);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await sandbox?.close();
  app?.remove();
});

test('React + Vite: `tsc --noEmit` strict (typed events and theme, a wrong listener refused)', async () => {
  // A `@ts-expect-error` line that no longer meets an error fails this too.
  await app.exec('node', ['node_modules/typescript/bin/tsc', '--noEmit']);
});

test('React + Vite: `vite build` without billing variables, then `vite preview`', async () => {
  await app.exec('node', ['node_modules/vite/bin/vite.js', 'build']);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const preview = await startProcess(
    app,
    'node',
    [
      'node_modules/vite/bin/vite.js',
      'preview',
      '--port',
      String(port),
      '--strictPort',
      '--host',
      '127.0.0.1',
    ],
    { env: billingEnv(sandbox), readyUrl: url },
  );
  try {
    await proveBilling(browser, sandbox, url);
  } finally {
    await preview.stop();
  }
});
