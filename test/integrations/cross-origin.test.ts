// examples/cross-origin: plain HTML pages of a site (http://localhost:4102) loading the
// package's browser files from a CDN-like server (http://127.0.0.1:4101, CORS `*`) and calling
// the app's proxy on a third origin (http://127.0.0.1:4100, the site in allowedOrigins).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { buildSnippet } from '../../demo/src/snippet.js';
import {
  billingEnv,
  installExample,
  launchBrowser,
  proveBilling,
  startProcess,
  startSandboxOf,
  type InstalledApp,
  type RunningProcess,
  type Sandbox,
} from './harness.js';

let app: InstalledApp;
let sandbox: Sandbox;
let browser: Browser;
const servers: RunningProcess[] = [];

before(async () => {
  app = await installExample('cross-origin');
  sandbox = await startSandboxOf(app);
  browser = await launchBrowser();
  servers.push(
    await startProcess(app, 'node', ['api.js'], {
      env: billingEnv(sandbox),
      readyUrl: 'http://127.0.0.1:4100/billing/nothing',
    }),
    await startProcess(app, 'node', ['cdn.js'], {
      readyUrl: 'http://127.0.0.1:4101/billing-elements.js',
    }),
    await startProcess(app, 'node', ['site.js'], { readyUrl: 'http://localhost:4102/' }),
  );
});

after(async () => {
  for (const server of servers) await server.stop();
  await browser?.close();
  await sandbox?.close();
  app?.remove();
});

test('another origin: the script-tag file from a CDN, the proxy on a third origin', async () => {
  await proveBilling(browser, sandbox, 'http://localhost:4102/');
});

test("another origin: the snippet builder's per-element modules, pasted as is", async () => {
  // The page holds exactly what the demo's snippet builder writes for these choices.
  const page = readFileSync(join(app.dir, 'site/modules.html'), 'utf8');
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
  await proveBilling(browser, sandbox, 'http://localhost:4102/modules');
});
