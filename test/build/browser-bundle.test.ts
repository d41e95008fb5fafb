// The script-tag file as a bundler makes it from the sources: the browser code imports only the
// contract's types and its zod-free constants, so no zod ends up in it (the lint rule of
// src/client and src/elements says the same at the import; this checks the bundle itself).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build, type Rolldown } from 'vite';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('the browser bundle', () => {
  it('holds no zod, and the contract values it needs', async () => {
    const result = await build({
      root,
      configFile: false,
      logLevel: 'silent',
      build: {
        write: false,
        minify: false,
        lib: { entry: join(root, 'src/script-tag.ts'), formats: ['es'], fileName: () => 'b.js' },
        rolldownOptions: { output: { codeSplitting: false } },
      },
    });
    const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
    const code = outputs
      .flatMap((output) => output.output.map((file) => ('code' in file ? file.code : '')))
      .join('\n');
    assert.ok(code.includes('customElements'), 'the bundle was made');
    assert.ok(code.includes('[A-Za-z0-9_-]{16,128}'), 'IDEMPOTENCY_KEY_PATTERN is in it');
    for (const marker of ['node_modules/zod', 'ZodError', '$ZodType', 'safeParse']) {
      assert.ok(!code.includes(marker), `found "${marker}" of zod in the bundle`);
    }
  });

  it("carries Lit's production build even when built inside a development server", async () => {
    // The demo builds the script-tag file and the CDN modules in memory, in a process where
    // NODE_ENV is `development`: Vite's default conditions would then pick Lit's dev mode,
    // which warns on every page.
    const saved = process.env.NODE_ENV;
    process.env.NODE_ENV = 'development';
    try {
      for (const mode of ['script-tag', 'modules']) {
        const result = await build({
          root,
          configFile: join(root, 'vite.config.ts'),
          mode,
          logLevel: 'silent',
          build: { write: false, emptyOutDir: false },
        });
        const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
        const code = outputs
          .flatMap((output) => output.output.map((file) => ('code' in file ? file.code : '')))
          .join('\n');
        assert.ok(code.includes('customElements'), `${mode}: the bundle was made`);
        assert.ok(!code.includes('Lit is in dev mode'), `${mode}: Lit's dev mode is in the bundle`);
      }
    } finally {
      if (saved === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = saved;
    }
  });
});
