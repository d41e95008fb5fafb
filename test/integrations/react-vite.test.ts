// examples/react-vite: React 19 + Vite in TSX, type-checked strictly against the package's JSX
// typings, built without billing variables, and served by `vite preview` with the proxy mounted
// by billingProxyVitePlugin.
import { test } from 'node:test';
import { billingEnv, freePort, proveBilling, startProcess, useExample } from './harness.js';

const run = useExample('react-vite');

test('React + Vite: `tsc --noEmit` strict (typed events and theme, a wrong listener refused)', async () => {
  // A `@ts-expect-error` line that no longer meets an error fails this too.
  await run.app.exec('node', ['node_modules/typescript/bin/tsc', '--noEmit']);
});

test('React + Vite: `vite build` without billing variables, then `vite preview`', async () => {
  await run.app.exec('node', ['node_modules/vite/bin/vite.js', 'build']);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const preview = await startProcess(
    run.app,
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
    { env: billingEnv(run.sandbox), readyUrl: url },
  );
  try {
    await proveBilling(run.browser, run.sandbox, url);
  } finally {
    await preview.stop();
  }
});
