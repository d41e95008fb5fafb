// The published package, as a user gets it: `npm pack`, installed into a fresh project, then
// used there with plain `node` (no tsx) and type-checked by `tsc` against its declarations.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { CHROME_FLAGS, findChrome } from '../../scripts/prereqs.mjs';
import { basicAuth } from '../sandbox/helpers.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * How an app that installed the package builds the proxy over the sandbox (source text, run as
 * JavaScript and type-checked as TypeScript below): every customer is the healthy one.
 */
const PROXY_OVER_SANDBOX = `createBillingProxy({
        baseUrl: sandbox.apiUrl,
        agentKey: sandbox.agentKey,
        apiKey: sandbox.apiKey,
        businessId: sandbox.businessId,
        segment: sandbox.segment,
        portalScriptUrl: sandbox.portalScriptUrl,
        portalSecret: sandbox.portalSecret,
        identify: async () => ({ reference: 'healthy' }),
        basePath: '/billing',
      })`;

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

let work: string;
let project: string;
let packed: { filename: string; files: { path: string }[] };

/** Runs an ES module in the installed project with plain node; returns its stdout. */
async function node(name: string, code: string): Promise<string> {
  const file = join(project, name);
  writeFileSync(file, code);
  const { stdout } = await run(process.execPath, [file], { cwd: project, timeout: 20_000 });
  return stdout;
}

describe('the npm package', { timeout: 120_000 }, () => {
  before(async () => {
    // The tarball is made from dist/: build it unless it is already up to date.
    await run(process.execPath, [join(root, 'scripts/build.mjs'), '--quiet', '--if-needed'], {
      cwd: root,
      timeout: 120_000,
    });
    work = mkdtempSync(join(tmpdir(), 'billing-elements-pack-'));
    const { stdout } = await run(
      npm,
      ['pack', '--json', '--ignore-scripts', '--pack-destination', work],
      { cwd: root, timeout: 60_000 },
    );
    const [result] = JSON.parse(stdout) as (typeof packed)[];
    assert.ok(result, 'npm pack reported its tarball');
    packed = result;
    project = join(work, 'app');
    mkdirSync(project);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'pack-test-app', private: true, type: 'module' }),
    );
    // lit comes with the package; zod, the optional peer a server app installs itself (README),
    // from npm's cache (`npm ci` of this repository put it there). Nothing else: the Node
    // adapter (toNodeHandler, below) needs no other package.
    const devVersions = (
      JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
        devDependencies: Record<string, string>;
      }
    ).devDependencies;
    await run(
      npm,
      [
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--no-package-lock',
        join(work, packed.filename),
        `zod@${devVersions.zod}`,
      ],
      { cwd: project, timeout: 90_000 },
    );
  });

  after(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('contains the built entry points and nothing of the sources or tests', () => {
    const paths = packed.files.map((file) => file.path);
    for (const expected of [
      'package.json',
      'README.md',
      'dist/index.js',
      'dist/define.js',
      'dist/elements/usage-meter/define.js',
      'dist/elements/buy-feature/define.js',
      'dist/elements/billing-portal/define.js',
      'dist/billing-elements.js',
      'dist/billing-elements.fr.js',
      'dist/cdn/autoloader.js',
      'dist/cdn/usage-meter.js',
      'dist/cdn/feature-gate.js',
      'dist/cdn/billing-history.js',
      'dist/server/index.js',
      'dist/server/worker.js',
      'dist/sandbox/index.js',
      'dist/sandbox/cli.js',
      'dist/types/index.d.ts',
      'dist/types/jsx/react.d.ts',
      'dist/custom-elements.json',
    ]) {
      assert.ok(paths.includes(expected), `${expected} is in the tarball`);
    }
    const unwanted = paths.filter((path) =>
      /^(src|test|demo|scripts|bench|node_modules)\/|\.map$|\.tsbuildinfo$|\.test\./.test(path),
    );
    assert.deepEqual(unwanted, []);
  });

  it('runs the sandbox and the proxy from the installed package with plain node', async () => {
    const stdout = await node(
      'server.mjs',
      `
      import { createServer } from 'node:http';
      import { startSandbox } from 'billing-elements/sandbox';
      import { createBillingProxy, toNodeHandler } from 'billing-elements/server';

      const sandbox = await startSandbox();
      const proxy = ${PROXY_OVER_SANDBOX};
      const server = createServer(toNodeHandler(proxy));
      await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
      const origin = 'http://127.0.0.1:' + server.address().port;
      const usages = await fetch(origin + '/billing/usages');
      const portal = await fetch(sandbox.portalScriptUrl);
      console.log(JSON.stringify({
        usagesStatus: usages.status,
        usages: await usages.json(),
        portalStatus: portal.status,
        portalType: portal.headers.get('content-type'),
      }));
      server.close();
      await sandbox.close();
      `,
    );
    const result = JSON.parse(stdout) as {
      usagesStatus: number;
      usages: { usages: { ReferenceFeature: string }[] };
      portalStatus: number;
      portalType: string;
    };
    assert.equal(result.usagesStatus, 200);
    const features = result.usages.usages.map((usage) => usage.ReferenceFeature).sort();
    assert.ok(features.includes('seats'), `the healthy customer's usages: ${features.join(', ')}`);
    assert.equal(result.portalStatus, 200);
    assert.match(result.portalType, /javascript/);
  });

  it('starts the sandbox with the billing-sandbox command', async () => {
    const bin = join(project, 'node_modules', '.bin', 'billing-sandbox');
    assert.ok(existsSync(bin), 'npm linked the bin');
    const child = spawn(bin, ['--port', '0'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let output = '';
        const timer = setTimeout(() => reject(new Error(`no address printed:\n${output}`)), 15_000);
        const onData = (chunk: Buffer) => {
          output += chunk;
          const match = /http:\/\/127\.0\.0\.1:\d+/.exec(output);
          if (match) {
            clearTimeout(timer);
            resolve(match[0]);
          }
        };
        child.stdout.on('data', onData);
        child.stderr.on('data', onData);
        child.on('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
      });
      const clock = await fetch(`${url}/_sandbox/clock`, {
        headers: { authorization: basicAuth('sandbox-agent', 'sandbox-api-key') },
      });
      assert.equal(clock.status, 200);
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    }
  });

  it('imports billing-elements under Node without touching window or document', async () => {
    const stdout = await node(
      'ssr.mjs',
      `
      const touched = [];
      for (const name of ['window', 'document', 'localStorage', 'sessionStorage']) {
        Object.defineProperty(globalThis, name, {
          configurable: true,
          get() {
            const stack = new Error().stack.split('\\n').slice(2);
            if (stack.some((line) => line.includes('/node_modules/billing-elements/'))) touched.push(name);
            return undefined;
          },
        });
      }
      const entry = await import('billing-elements');
      console.log(JSON.stringify({
        touched,
        exports: ['UsageMeter', 'BuyFeature', 'BillingPortal', 'configureBilling', 'getUsageStore']
          .filter((name) => typeof entry[name] === 'function'),
        defined: ['usage-meter', 'buy-feature', 'billing-portal']
          .filter((tag) => globalThis.customElements?.get(tag)),
      }));
      `,
    );
    const result = JSON.parse(stdout) as {
      touched: string[];
      exports: string[];
      defined: string[];
    };
    assert.deepEqual(result.touched, []);
    assert.deepEqual(result.exports, [
      'UsageMeter',
      'BuyFeature',
      'BillingPortal',
      'configureBilling',
      'getUsageStore',
    ]);
    assert.deepEqual(result.defined, [], 'the main entry registers no tag');
  });

  it('ships the script-tag file and the manifest at their exported paths', async () => {
    const stdout = await node(
      'resolve.mjs',
      `
      console.log(JSON.stringify({
        script: import.meta.resolve('billing-elements/billing-elements.js'),
        manifest: import.meta.resolve('billing-elements/custom-elements.json'),
      }));
      `,
    );
    const { script, manifest } = JSON.parse(stdout) as { script: string; manifest: string };
    const code = readFileSync(fileURLToPath(script), 'utf8');
    assert.ok(code.length > 10_000, 'a real bundle');
    assert.doesNotMatch(
      code,
      /^\s*(import|export)\s/m,
      'no module syntax: it runs from a plain <script>',
    );
    const tags = (
      JSON.parse(readFileSync(fileURLToPath(manifest), 'utf8')) as {
        modules: { exports?: { kind: string; name: string }[] }[];
      }
    ).modules
      .flatMap((module) => module.exports ?? [])
      .filter((entry) => entry.kind === 'custom-element-definition')
      .map((entry) => entry.name)
      .sort();
    assert.deepEqual(tags, [
      'billing-history',
      'billing-portal',
      'buy-feature',
      'feature-gate',
      'plan-picker',
      'usage-meter',
    ]);
    const pkg = JSON.parse(
      readFileSync(join(project, 'node_modules', 'billing-elements', 'package.json'), 'utf8'),
    ) as { customElements: string };
    assert.ok(existsSync(join(project, 'node_modules', 'billing-elements', pkg.customElements)));
  });

  it('has declarations that import only the dependencies (and the opt-in frameworks)', () => {
    const types = join(project, 'node_modules', 'billing-elements', 'dist', 'types');
    const bare = new Set<string>();
    for (const { path } of packed.files) {
      if (
        !path.startsWith('dist/types/') ||
        /^dist\/types\/jsx\/(react|vue|svelte)\.d\.ts$/.test(path)
      )
        continue;
      // Imports only: a doc comment may show one for the reader (`export { X } from '…'`).
      const text = readFileSync(join(types, '..', '..', path), 'utf8').replace(
        /\/\*[\s\S]*?\*\//g,
        '',
      );
      // A module specifier after `from ` or `import(`: a key such as 'plan.dialog.from' is none.
      for (const [, name] of text.matchAll(/(?:\bfrom\s+|\bimport\()'([@a-z][\w@/.:-]*)'/g))
        bare.add(name!);
    }
    const allowed = /^(lit|zod|zod\/mini|node:[a-z/_]+)$/;
    assert.deepEqual(
      [...bare].filter((name) => !allowed.test(name)),
      [],
    );
  });

  it('type-checks a TypeScript file that uses every entry point', async () => {
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023', 'DOM', 'DOM.Iterable'],
          strict: true,
          noEmit: true,
          // Checking every library's declarations takes a minute (zod's); ours are covered by
          // the imports check below and by the expectations in app.ts.
          skipLibCheck: true,
          types: ['node'],
          typeRoots: [join(root, 'node_modules', '@types')],
        },
        files: ['app.ts'],
      }),
    );
    writeFileSync(
      join(project, 'app.ts'),
      `
      import { UsageMeter, configureBilling, getUsageStore, type Usage } from 'billing-elements';
      import 'billing-elements/define';
      import 'billing-elements/usage-meter';
      import 'billing-elements/buy-feature';
      import 'billing-elements/billing-portal';
      import 'billing-elements/plan-picker';
      import 'billing-elements/feature-gate';
      import 'billing-elements/billing-history';
      import { createBillingProxy, toNodeHandler } from 'billing-elements/server';
      import { startSandbox } from 'billing-elements/sandbox';
      import type { BillingElementTags, BillingEventMap } from 'billing-elements/jsx';

      configureBilling({ endpoint: '/billing' });
      const meter: UsageMeter = document.createElement('usage-meter');
      meter.feature = 'seats';
      // @ts-expect-error feature is a string
      meter.feature = 5;
      const buy: BillingElementTags['buy-feature'] = document.createElement('buy-feature');
      buy.addEventListener('billing-purchase', (event) => {
        const usage: Usage = event.detail.usage;
        void usage;
      });
      buy.addEventListener('billing-add-on-change', (event) => {
        const enabled: boolean = event.detail.enabled;
        void enabled;
      });
      const picker: BillingElementTags['plan-picker'] = document.createElement('plan-picker');
      picker.contactHref = 'mailto:sales@example.com';
      const gate: BillingElementTags['feature-gate'] = document.createElement('feature-gate');
      gate.feature = 'sso';
      const history: BillingElementTags['billing-history'] = document.createElement('billing-history');
      history.pageSize = 20;
      const added: BillingEventMap['billing-add-on-change'] | undefined = undefined;
      void added;
      const portal = document.querySelector('billing-portal');
      portal?.setAttribute('page', 'offers');
      const purchase: BillingEventMap['billing-purchase'] | undefined = undefined;
      void purchase;
      void getUsageStore().isEntitled('seats');

      const sandbox = await startSandbox({ port: 0 });
      const proxy = ${PROXY_OVER_SANDBOX};
      const response: Response = await proxy.fetch(new Request('http://app.test/billing/usages'));
      void toNodeHandler(proxy);
      void response;
      `,
    );
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    try {
      await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project, timeout: 60_000 });
    } catch (error) {
      const { stdout, stderr } = error as { stdout?: string; stderr?: string };
      assert.fail(`tsc failed in the installed project:\n${stdout ?? ''}${stderr ?? ''}`);
    }
  });

  it('registers once in a browser, whether the script-tag file or the npm build comes first', async () => {
    // The installed project served as files; an import map stands in for the app's bundler.
    const types: Record<string, string> = { '.js': 'text/javascript', '.html': 'text/html' };
    const server = createServer((request, response) => {
      const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname));
      const file = join(project, path);
      if (!file.startsWith(project) || !existsSync(file)) {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200, {
        'content-type': types[extname(file)] ?? 'application/octet-stream',
      });
      response.end(readFileSync(file));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const imports = {
      lit: '/node_modules/lit/index.js',
      'lit/': '/node_modules/lit/',
      'lit-html': '/node_modules/lit-html/lit-html.js',
      'lit-html/': '/node_modules/lit-html/',
      'lit-element/': '/node_modules/lit-element/',
      '@lit/reactive-element': '/node_modules/@lit/reactive-element/reactive-element.js',
      '@lit/reactive-element/': '/node_modules/@lit/reactive-element/',
    };
    // Each page loads two copies, in order, then sets `done` (or records the error).
    const page = (steps: string) => `<!doctype html><html lang="en"><head>
      <script type="importmap">${JSON.stringify({ imports })}</script></head><body>
      <usage-meter feature="seats"></usage-meter><buy-feature feature="seats"></buy-feature>
      <script type="module">
        window.errors = [];
        addEventListener('error', (event) => errors.push(String(event.message)));
        const dist = '/node_modules/billing-elements/dist';
        const scriptTag = () => new Promise((resolve, reject) => {
          const script = Object.assign(document.createElement('script'), { src: dist + '/billing-elements.js' });
          script.onload = resolve;
          script.onerror = reject;
          document.head.append(script);
        });
        const npmBuild = async () => {
          await import(dist + '/define.js');
          window.npmUsageMeter = (await import(dist + '/index.js')).UsageMeter;
        };
        try {
          ${steps}
          window.done = true;
        } catch (error) {
          errors.push(String(error));
        }
      </script></body></html>`;
    const scenarios: Record<string, string> = {
      'npm-first': 'await npmBuild(); await scriptTag();',
      'script-first': 'await scriptTag(); await npmBuild();',
      'script-twice': 'await scriptTag(); await scriptTag();',
    };
    for (const [name, steps] of Object.entries(scenarios)) {
      writeFileSync(join(project, `${name}.html`), page(steps));
    }

    const browser = await chromium.launch({
      executablePath: findChrome(),
      args: [...CHROME_FLAGS],
    });
    try {
      for (const name of Object.keys(scenarios)) {
        const tab = await browser.newPage();
        const pageErrors: string[] = [];
        tab.on('pageerror', (error) => pageErrors.push(error.message));
        await tab.goto(`${origin}/${name}.html`);
        await tab.waitForFunction(() => {
          const w = window as unknown as { done?: boolean; errors?: string[] };
          return w.done === true || (w.errors?.length ?? 0) > 0;
        });
        const state = await tab.evaluate(() => {
          const w = window as unknown as {
            errors: string[];
            npmUsageMeter?: unknown;
            BillingElements?: { UsageMeter: unknown };
          };
          const registered = customElements.get('usage-meter');
          return {
            errors: w.errors,
            defined: ['usage-meter', 'buy-feature', 'billing-portal'].filter((tag) =>
              customElements.get(tag),
            ).length,
            api: typeof w.BillingElements,
            // Which copy holds the tag: the one loaded first.
            holder:
              registered === w.npmUsageMeter
                ? 'npm'
                : registered === w.BillingElements?.UsageMeter
                  ? 'script'
                  : 'other',
            upgraded: document.querySelector('usage-meter')?.shadowRoot !== null,
          };
        });
        assert.deepEqual([...pageErrors, ...state.errors], [], `${name}: no error`);
        assert.equal(state.defined, 3, `${name}: every tag is defined`);
        assert.equal(state.api, 'object', `${name}: window.BillingElements`);
        assert.equal(
          state.holder,
          name === 'npm-first' ? 'npm' : 'script',
          `${name}: first copy wins`,
        );
        assert.equal(state.upgraded, true, `${name}: the element is upgraded`);
        await tab.close();
      }
    } finally {
      await browser.close();
      server.close();
    }
  });
});
