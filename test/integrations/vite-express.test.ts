// examples/vite-express: a Vite + TypeScript single-page app with an Express API, run as the
// developer runs it (Vite's dev server forwarding /billing with `server.proxy`, which rewrites
// Host) and as it is deployed (`vite build`, the files served by Express).
import { test } from 'node:test';
import {
  billingEnv,
  freePort,
  proveBilling,
  startProcess,
  useExample,
  withServer,
} from './harness.js';

const run = useExample('vite-express');

test('Vite + Express: `vite` dev server with server.proxy to `node server.js`', async () => {
  const apiPort = await freePort();
  const api = await startProcess(run.app, 'node', ['server.js'], {
    env: { ...billingEnv(run.sandbox), PORT: String(apiPort) },
    readyUrl: `http://127.0.0.1:${apiPort}/billing/nothing`,
  });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const vite = await startProcess(
    run.app,
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
    await proveBilling(run.browser, run.sandbox, url);
  } finally {
    await vite.stop();
    await api.stop();
  }
});

test('Vite + Express: `tsc && vite build`, served by `node server.js`', async () => {
  // Built without any billing variable: the browser bundle needs none.
  await run.app.exec('npm', ['run', 'build']);
  await withServer(run);
});
