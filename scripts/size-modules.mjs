// `npm run size:modules`: what the script-tag file is made of. For each module, what the
// file's gzip size loses when that module's code is taken out (minified with the bundler's own
// minifier, without the compressor's dead-code passes so that one module's removal does not
// cascade). The figures do not add up to the total exactly (gzip shares text between modules),
// but they rank where the bytes go far better than source sizes, which overstate CSS and text
// and understate code. `npm run size` gives the totals and checks the budget.
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
// rolldown is Vite's bundler (installed with it); its oxc minifier is the one the build uses.
import { minifySync } from 'rolldown/experimental';

const root = fileURLToPath(new URL('..', import.meta.url));

const result = await build({
  root,
  configFile: `${root}vite.config.ts`,
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
  gzipSync(minifySync('billing-elements.js', code, { compress: false, mangle: true }).code, {
    level: 9,
  }).length;

// Each module's code starts with a `// <path>` comment line (indented) in an unminified chunk.
const parts = chunk.code.split(/(?=^[ \t]*\/\/ (?:src|node_modules)\/)/m);
const whole = minifiedGzip(chunk.code);
const rows = [];
for (let index = 1; index < parts.length; index++) {
  const id = /^\s*\/\/ (\S+)/.exec(parts[index])[1].replace(/^node_modules\//, '');
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
console.log(`script-tag file by module (gzip bytes saved without it; ${whole} B in all):`);
for (const [saved, id] of rows) {
  console.log(`${(Number.isNaN(saved) ? '   ?' : String(saved)).padStart(7)} B  ${id}`);
}
