// Browser builds of the package (`npm run build` runs both through scripts/build.mjs):
// - default mode: the npm ES modules (`billing-elements`, `/define`, one define module per
//   element), with lit and zod left as imports so the host app's bundler keeps one copy of each;
// - mode `script-tag`: dist/billing-elements.js, one self-contained file for a plain
//   <script> tag that registers every element and exposes the API as `window.BillingElements`.
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import type { Plugin } from 'vite';
import { minifyLitCss, pureContractSchemas } from './scripts/build-plugins.js';

const root = fileURLToPath(new URL('.', import.meta.url));
const src = (path: string) => `${root}src/${path}`;

/** Tags that have a define module: src/elements/<tag>/define.ts (a tag has a hyphen). */
export function elementTags(): string[] {
  const dir = src('elements');
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter(
      (entry) =>
        entry.isDirectory() &&
        entry.name.includes('-') &&
        existsSync(`${dir}/${entry.name}/define.ts`),
    )
    .map((entry) => entry.name)
    .sort();
}

/** The elements' stylesheet modules (the shared one, then each element's), then their texts. */
function styleAndTextModules(): string[] {
  const folders = ['shared', ...elementTags()];
  return [
    ...folders.map((folder) => src(`elements/${folder}/styles.ts`)),
    src('client/i18n.ts'),
    ...folders.map((folder) => src(`elements/${folder}/messages.ts`)),
  ].filter((file) => existsSync(file));
}

/** Entry name (its path under dist/, without `.js`) to source file. */
export function browserEntries(): Record<string, string> {
  const entries: Record<string, string> = { index: src('index.ts'), define: src('define.ts') };
  for (const tag of elementTags())
    entries[`elements/${tag}/define`] = src(`elements/${tag}/define.ts`);
  return entries;
}

// Virtual: lib mode resolves the entry against the root, so it is matched by its ending.
const SCRIPT_TAG_ENTRY = 'virtual:billing-elements-script-tag.js';

/** The script-tag file's entry: src/script-tag.ts, after the stylesheets. */
function scriptTagEntry(): Plugin {
  return {
    name: 'billing-elements:script-tag-entry',
    resolveId: (id) => (id.endsWith(SCRIPT_TAG_ENTRY) ? `\0${SCRIPT_TAG_ENTRY}` : null),
    load: (id) =>
      id === `\0${SCRIPT_TAG_ENTRY}`
        ? [
            // The stylesheets first, side by side, then the texts: gzip then finds their shared
            // words within its 32 KiB window instead of three element classes apart.
            ...styleAndTextModules().map((file) => `import ${JSON.stringify(file)};`),
            `export * from ${JSON.stringify(src('script-tag.ts'))};`,
            '',
          ].join('\n')
        : null,
  };
}

// Bare imports of the npm build's runtime dependencies (their subpaths included).
const NPM_EXTERNALS = [
  /^lit(\/.*)?$/,
  /^@lit\//,
  /^@lit-labs\//,
  /^lit-html(\/.*)?$/,
  /^lit-element(\/.*)?$/,
  /^zod(\/.*)?$/,
];

export default defineConfig(({ mode }) => {
  const scriptTag = mode === 'script-tag';
  return {
    publicDir: false,
    build: {
      outDir: 'dist',
      // scripts/build.mjs empties dist/ once and then runs several builds into it.
      emptyOutDir: false,
      sourcemap: false,
      reportCompressedSize: false,
      // The script-tag file goes through terser and then rolldown's own minifier (output.minify
      // below): terser's inlining and rolldown's printing together give a file that gzips about
      // 85 B smaller than either alone; unused trailing parameters go too (`keep_fargs: false`:
      // neither lit nor our code reads a function's `length`). The npm modules keep rolldown's
      // minifier alone: a host app's bundler minifies them again.
      ...(scriptTag && {
        minify: 'terser' as const,
        terserOptions: { compress: { passes: 3, keep_fargs: false }, ecma: 2020 as const },
      }),
      lib: scriptTag
        ? {
            entry: SCRIPT_TAG_ENTRY,
            name: 'BillingElements',
            formats: ['iife'],
            fileName: () => 'billing-elements.js',
          }
        : { entry: browserEntries(), formats: ['es'], fileName: (_format, name) => `${name}.js` },
      rolldownOptions: scriptTag
        ? {
            output: {
              minify: true,
              // `window.BillingElements` is a plain object, not tagged as a module namespace.
              generatedCode: { symbols: false },
              // Loaded twice (two snippets on one page), the second copy does nothing at all, so
              // `window.BillingElements` keeps driving the elements that are registered.
              banner: 'if(!globalThis.BillingElements){',
              footer: '}',
            },
          }
        : {
            external: NPM_EXTERNALS,
            // lit and zod have no import-time effect: an import of zod/mini left with nothing
            // used from it (the contract's schemas are dropped) must go too.
            treeshake: { moduleSideEffects: 'no-external' },
            output: { minify: true, chunkFileNames: 'chunks/[name]-[hash].js' },
          },
    },
    plugins: [pureContractSchemas(), minifyLitCss(), ...(scriptTag ? [scriptTagEntry()] : [])],
  };
});
