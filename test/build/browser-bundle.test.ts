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
});
