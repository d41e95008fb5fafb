// examples/cross-origin: plain HTML pages of a site (http://localhost:4102) loading the
// package's browser files from a CDN-like server (http://127.0.0.1:4101, CORS `*`) and calling
// the app's proxy on a third origin (http://127.0.0.1:4100, the site in allowedOrigins).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildSnippet } from '../../demo/src/snippet.js';
import { billingEnv, proveBilling, startProcess, useExample } from './harness.js';

const run = useExample('cross-origin', async () => [
  await startProcess(run.app, 'node', ['api.js'], {
    env: billingEnv(run.sandbox),
    readyUrl: 'http://127.0.0.1:4100/billing/nothing',
  }),
  await startProcess(run.app, 'node', ['cdn.js'], {
    readyUrl: 'http://127.0.0.1:4101/billing-elements.js',
  }),
  await startProcess(run.app, 'node', ['site.js'], { readyUrl: 'http://localhost:4102/' }),
]);

test('another origin: the script-tag file from a CDN, the proxy on a third origin', async () => {
  await proveBilling(run.browser, run.sandbox, 'http://localhost:4102/');
});

test("another origin: the snippet builder's per-element modules, pasted as is", async () => {
  // The page holds exactly what the demo's snippet builder writes for these choices.
  const page = readFileSync(join(run.app.dir, 'site/modules.html'), 'utf8');
  const common = {
    endpoint: 'http://127.0.0.1:4100/billing',
    filesUrl: 'http://127.0.0.1:4101',
    lang: '',
    accent: '',
  };
  const snippets: [string, [string, string][]][] = [
    ['usage-meter', [['feature', 'seats']]],
    [
      'buy-feature',
      [
        ['feature', 'seats'],
        ['label', 'seats'],
      ],
    ],
    ['billing-portal', []],
  ];
  for (const [tag, attributes] of snippets) {
    const snippet = buildSnippet({ tag, attributes, ...common });
    assert.ok(
      page.includes(snippet),
      `modules.html holds the builder's ${tag} snippet:\n${snippet}`,
    );
  }
  await proveBilling(run.browser, run.sandbox, 'http://localhost:4102/modules');
});
