// `npm run size`: what the browser downloads. Builds the package if needed, then prints the
// minified and gzip (-9) size of the script-tag file and of each element's npm entry bundled
// with its dependencies (Lit), as a host app's bundler would. `--modules` lists what the
// script-tag file is made of.
//
// It fails when the script-tag file is over BUDGET_BYTES (20 KiB gzip, node's zlib at level 9),
// and says how far it is from AIM_BYTES; `npm test` runs it.
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from './build.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const KIB = 1024;
export const BUDGET_BYTES = 20 * KIB; // the script-tag file, gzip: a hard limit
export const AIM_BYTES = 16_000; // the same, gzip: what we aim for

const gzipSize = (code) => gzipSync(code, { level: 9 }).length;
const kib = (bytes) => `${(bytes / KIB).toFixed(2)} KiB`;

/** One npm entry bundled with its dependencies, minified, in memory. */
async function bundle(entry) {
  const { build } = await import('vite');
  const result = await build({
    root,
    configFile: false,
    logLevel: 'silent',
    publicDir: false,
    build: {
      write: false,
      lib: { entry, formats: ['es'], fileName: () => 'bundle.js' },
      rolldownOptions: { output: { minify: true, codeSplitting: false } },
    },
  });
  const outputs = Array.isArray(result) ? result : [result];
  return outputs
    .flatMap((output) => output.output)
    .filter((file) => file.type === 'chunk')
    .map((file) => file.code)
    .join('\n');
}

/**
 * A bundler that believes `sideEffects` must keep every registration: each define module calls
 * its class's `define()` (the elements' convention), a call with no argument.
 */
function assertRegisters(code, expected, entry) {
  const calls = code.match(/\.define\(\)/g)?.length ?? 0;
  if (calls < expected) {
    throw new Error(
      `bundled, ${entry} registers ${calls} of ${expected} elements: check package.json sideEffects`,
    );
  }
}

export async function measure() {
  if (await ensureBuilt({ quiet: true })) console.log('(built the package first)');
  const tags = JSON.parse(readFileSync(join(root, 'dist', 'custom-elements.json'), 'utf8'))
    .modules.flatMap((module) => module.exports ?? [])
    .filter((e) => e.kind === 'custom-element-definition')
    .map((e) => e.name)
    .sort();
  const rows = [];
  const scriptTag = readFileSync(join(root, 'dist', 'billing-elements.js'));
  rows.push({
    name: 'dist/billing-elements.js (script tag, everything)',
    min: scriptTag.length,
    gzip: gzipSize(scriptTag),
  });
  for (const tag of tags) {
    const code = await bundle(join(root, 'dist', 'elements', tag, 'define.js'));
    assertRegisters(code, 1, `billing-elements/${tag}`);
    rows.push({
      name: `billing-elements/${tag} + its dependencies`,
      min: Buffer.byteLength(code),
      gzip: gzipSize(code),
    });
  }
  const all = await bundle(join(root, 'dist', 'define.js'));
  assertRegisters(all, tags.length, 'billing-elements/define');
  rows.push({
    name: 'billing-elements/define + its dependencies',
    min: Buffer.byteLength(all),
    gzip: gzipSize(all),
  });
  return rows;
}

/**
 * What the script-tag file is made of: for each module, what the file's gzip size loses when
 * that module's code is taken out (minified with the bundler's own minifier, without the
 * compressor's dead-code passes so that one module's removal does not cascade). The figures do
 * not add up to the total exactly (gzip shares text between modules), but they rank where the
 * bytes go far better than source sizes, which overstate CSS and text and understate code.
 */
async function modules() {
  const { build } = await import('vite');
  // rolldown is Vite's bundler (installed with it); its oxc minifier is the one the build uses.
  const { minifySync } = await import('rolldown/experimental');
  const result = await build({
    root,
    configFile: join(root, 'vite.config.ts'),
    mode: 'script-tag',
    logLevel: 'silent',
    build: {
      write: false,
      minify: false,
      rolldownOptions: { output: { minify: false, banner: '', footer: '' } },
    },
  });
  const chunk = (Array.isArray(result) ? result : [result])
    .flatMap((output) => output.output)
    .find((file) => file.fileName === 'billing-elements.js');
  const minifiedGzip = (code) =>
    gzipSize(minifySync('billing-elements.js', code, { compress: false, mangle: true }).code);
  // Each module's code starts with a `// <path>` comment line in an unminified chunk.
  const parts = chunk.code.split(/(?=^\/\/ (?:src|node_modules)\/)/m);
  const whole = minifiedGzip(chunk.code);
  const rows = [];
  for (let index = 1; index < parts.length; index++) {
    const id = /^\/\/ (\S+)/.exec(parts[index])[1].replace(/^node_modules\//, '');
    // The last module also holds the closing lines of the file's function: not removable alone.
    let saved = NaN;
    try {
      saved = whole - minifiedGzip(parts.filter((_, other) => other !== index).join(''));
    } catch {
      // unparsable without it
    }
    rows.push([saved > whole / 2 ? NaN : saved, id]);
  }
  rows.sort((a, b) => (b[0] || 0) - (a[0] || 0));
  console.log(`\nscript-tag file by module (gzip bytes saved without it; ${whole} B in all):`);
  for (const [saved, id] of rows) {
    console.log(`${(Number.isNaN(saved) ? '   ?' : String(saved)).padStart(7)} B  ${id}`);
  }
}

async function main() {
  const rows = await measure();
  const width = Math.max(...rows.map((row) => row.name.length));
  console.log(`${'bundle'.padEnd(width)}  ${'minified'.padStart(11)}  ${'gzip -9'.padStart(11)}`);
  for (const row of rows) {
    console.log(
      `${row.name.padEnd(width)}  ${kib(row.min).padStart(11)}  ${kib(row.gzip).padStart(11)}`,
    );
  }
  const scriptTag = rows[0].gzip;
  const verdict = scriptTag <= BUDGET_BYTES ? 'within' : 'OVER';
  console.log(
    `\nscript-tag file: ${scriptTag} B gzip = ${kib(scriptTag)} = ${(scriptTag / 1000).toFixed(1)} kB; ` +
      `budget ${kib(BUDGET_BYTES)} (${verdict}), aim ${AIM_BYTES / 1000} kB (${scriptTag <= AIM_BYTES ? 'met' : 'not met'})`,
  );
  if (process.argv.includes('--modules')) await modules();
  else if (scriptTag > BUDGET_BYTES)
    console.log('`npm run size -- --modules` shows what it is made of.');
  if (scriptTag > BUDGET_BYTES) {
    console.log(`OVER BUDGET by ${scriptTag - BUDGET_BYTES} B`);
    process.exit(1);
  }
  console.log(`${BUDGET_BYTES - scriptTag} B under the budget`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    await main();
  } catch (error) {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  }
}
