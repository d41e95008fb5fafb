// What a host app's bundler makes of the npm build: each define module keeps its registration
// (package.json `sideEffects` names them, and an element registers with a bare `define()`
// call, the elements' convention), and the main entry registers nothing.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build, type Rolldown } from 'vite';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** One entry of the package bundled alone, its dependencies left out, unminified. */
async function bundle(packageDir: string, entry: string): Promise<string> {
  const result = await build({
    root: packageDir,
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: false,
      lib: { entry: join(packageDir, entry), formats: ['es'], fileName: () => 'bundle.js' },
      rolldownOptions: { external: [/^lit/, /^@lit/, /^zod/], output: { codeSplitting: false } },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  return outputs
    .flatMap((output) => output.output.map((file) => ('code' in file ? file.code : '')))
    .join('\n');
}

const registrations = (code: string) => code.match(/\.define\(\)/g)?.length ?? 0;

describe('the npm build, bundled by a host app', () => {
  // The package as installed: its package.json beside a fresh npm build of dist/.
  let packageDir = '';
  before(async () => {
    packageDir = mkdtempSync(join(tmpdir(), 'billing-elements-side-effects-'));
    copyFileSync(join(root, 'package.json'), join(packageDir, 'package.json'));
    await build({
      root,
      configFile: join(root, 'vite.config.ts'),
      mode: 'production',
      logLevel: 'silent',
      build: { outDir: join(packageDir, 'dist') },
    });
  });
  after(() => rmSync(packageDir, { recursive: true, force: true }));

  for (const tag of [
    'billing-portal',
    'buy-feature',
    'usage-meter',
    'plan-picker',
    'feature-gate',
    'billing-history',
  ]) {
    it(`keeps the registration of billing-elements/${tag}`, async () => {
      assert.equal(registrations(await bundle(packageDir, `dist/elements/${tag}/define.js`)), 1);
    });
  }

  it('keeps the six registrations of billing-elements/define', async () => {
    assert.equal(registrations(await bundle(packageDir, 'dist/define.js')), 6);
  });

  it('registers nothing from the main entry', async () => {
    assert.equal(registrations(await bundle(packageDir, 'dist/index.js')), 0);
  });
});
