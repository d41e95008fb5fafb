// Browser builds of the package (`npm run build` runs both through scripts/build.mjs):
// - default mode: the npm ES modules (`billing-elements`, `/define`, one define module per
//   element), with lit and zod left as imports so the host app's bundler keeps one copy of each;
// - mode `script-tag`: dist/billing-elements.js, one self-contained file for a plain
//   <script> tag that registers every element and exposes the API as `window.BillingElements`;
// - mode `script-tag-texts`: dist/billing-elements.fr.js (one file per other language), the
//   texts the script-tag file loads from beside itself when a page shows that language;
// - mode `modules`: dist/cdn/, the autoloader and one module per element for
//   <script type="module"> (see modulesConfig below).
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import {
  minifyLitTemplatesPlugin,
  staticImportsPlugin,
  translationsBesidePlugin,
} from './scripts/build-plugins.js';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The script-tag file and the CDN modules carry their own copy of Lit: always its production
 * build, even when built inside a development server (the demo builds them in memory, where
 * NODE_ENV is `development` and Vite's default conditions would pick Lit's dev mode).
 */
const BUNDLED_CONDITIONS = ['module', 'browser', 'production'];
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

/** Entry name (its path under dist/, without `.js`) to source file. */
export function browserEntries(): Record<string, string> {
  const entries: Record<string, string> = { index: src('index.ts'), define: src('define.ts') };
  for (const tag of elementTags())
    entries[`elements/${tag}/define`] = src(`elements/${tag}/define.ts`);
  return entries;
}

// Bare imports of the npm build's runtime dependencies (their subpaths included).
const NPM_EXTERNALS = [
  /^lit(\/.*)?$/,
  /^@lit\//,
  /^@lit-labs\//,
  /^lit-html(\/.*)?$/,
  /^lit-element(\/.*)?$/,
  /^zod(\/.*)?$/,
  /^jose(\/.*)?$/,
];

/** The autoloader and one module per element, for `<script type="module">` (mode `modules`). */
export function moduleEntries(): Record<string, string> {
  const entries: Record<string, string> = { autoloader: src('autoloader.ts') };
  for (const tag of elementTags()) entries[tag] = src(`elements/${tag}/define.ts`);
  return entries;
}

/** The languages other than English: each has a file of texts beside the script-tag file. */
const OTHER_LANGUAGES = ['fr'];

/** Mode `script-tag-texts`: billing-elements.<language>.js, a module of data beside the script-tag file. */
function scriptTagTextsConfig() {
  return {
    publicDir: false as const,
    build: {
      outDir: 'dist',
      emptyOutDir: false,
      sourcemap: false,
      reportCompressedSize: false,
      lib: {
        entry: Object.fromEntries(
          OTHER_LANGUAGES.map((language) => [
            `billing-elements.${language}`,
            src(`script-tag.${language}.ts`),
          ]),
        ),
        formats: ['es' as const],
        fileName: (_format: string, name: string) => `${name}.js`,
      },
      rolldownOptions: { output: { minify: true } },
    },
  };
}

export default defineConfig(({ mode }) => {
  if (mode === 'modules') return modulesConfig();
  if (mode === 'script-tag-texts') return scriptTagTextsConfig();
  const scriptTag = mode === 'script-tag';
  return {
    publicDir: false,
    ...(scriptTag ? { resolve: { conditions: BUNDLED_CONDITIONS } } : {}),
    build: {
      outDir: 'dist',
      // scripts/build.mjs empties dist/ once and then runs several builds into it.
      emptyOutDir: false,
      sourcemap: false,
      reportCompressedSize: false,
      lib: scriptTag
        ? {
            entry: src('script-tag.ts'),
            name: 'BillingElements',
            formats: ['iife'],
            fileName: () => 'billing-elements.js',
          }
        : { entry: browserEntries(), formats: ['es'], fileName: (_format, name) => `${name}.js` },
      // The script-tag file is minified by Vite's own minifier, as every iife build is; the npm
      // modules need `output.minify` for it (a host app's bundler minifies them again anyway).
      rolldownOptions: scriptTag
        ? {
            output: {
              // `window.BillingElements` is a plain object, not tagged as a module namespace.
              generatedCode: { symbols: false },
              // A file a browser runs as it is: no hints for bundlers (`/* @__PURE__ */`).
              comments: { annotation: false },
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
    plugins: scriptTag
      ? [
          minifyLitTemplatesPlugin(),
          translationsBesidePlugin(src('script-tag-translations.ts')),
          staticImportsPlugin(),
        ]
      : [minifyLitTemplatesPlugin()],
  };
});

/**
 * Mode `modules`: dist/cdn/, the files a page loads with `<script type="module">` and no build
 * step: the autoloader, one module per element, and the chunks they share (Lit and the client
 * included, each once), so a page downloads the code of the elements it shows and no more.
 */
function modulesConfig() {
  return {
    publicDir: false as const,
    resolve: { conditions: BUNDLED_CONDITIONS },
    build: {
      outDir: 'dist/cdn',
      emptyOutDir: false,
      sourcemap: false,
      reportCompressedSize: false,
      lib: {
        entry: moduleEntries(),
        formats: ['es' as const],
        fileName: (_format: string, name: string) => `${name}.js`,
      },
      rolldownOptions: {
        // The entries' exports stay as declared; a chunk may add exports for the others.
        preserveEntrySignatures: 'allow-extension' as const,
        output: {
          minify: true,
          // Files a browser runs as they are: the hints for bundlers (`/* @__PURE__ */`) are
          // bytes every page would download for nothing.
          comments: { annotation: false },
          chunkFileNames: 'chunks/[name]-[hash].js',
          // One chunk of what every element runs on (Lit, the client, the shared element code),
          // rather than a dozen small ones: fewer requests, and gzip compresses it as one text.
          codeSplitting: {
            includeDependenciesRecursively: false,
            groups: [
              { name: 'core', test: isCoreModule, minShareCount: 3 },
              { name: 'remedies', test: isRemedyModule, minShareCount: 2 },
            ],
          },
        },
      },
    },
    plugins: [minifyLitTemplatesPlugin()],
  };
}

/**
 * What the elements share that a meter showing figures never runs: the shared texts, the
 * remedies that open the portal, the rule that offers each once per region and the plan to
 * suggest for a feature the plan lacks, with its look-up (its rare states import them, see
 * usage-meter/notices.ts). They are a chunk of their own, beside the core one.
 */
const REMEDY_MODULES =
  /[\\/]src[\\/](client[\\/](shared-texts|portal|safe-url)|elements[\\/]shared[\\/](remedy|remedy-pointer|warn|call-to-action|suggested-plan|suggested-plan-lookup))\.ts$/;

/** A table of texts in a language other than English (`messages.fr.ts`). */
function isTranslationModule(id: string): boolean {
  return OTHER_LANGUAGES.some((language) => id.endsWith(`.${language}.ts`));
}

function isRemedyModule(id: string): boolean {
  return REMEDY_MODULES.test(id);
}

/**
 * Whether a module belongs in the modules build's core chunk: Lit and the browser runtime, but
 * not the portal's embedding code (only `<billing-portal>` runs it; the other elements import
 * the portal on demand), nor the remedies' modules.
 */
function isCoreModule(id: string): boolean {
  // Another language's texts: a chunk of their own, loaded when a page shows that language.
  if (isTranslationModule(id)) return false;
  if (/[\\/]src[\\/]client[\\/]portal-(embed|script)\.ts$/.test(id)) return false;
  if (isRemedyModule(id)) return false;
  return /[\\/]node_modules[\\/](lit|lit-html|lit-element|@lit)[\\/]|[\\/]src[\\/](client|contract|elements[\\/]shared)[\\/]/.test(
    id,
  );
}
