// `npm run size` and the size stage of `npm test`, first part (size-limit, gzip -9): the files as
// built. The script-tag file is reported here; its budget, and the budgets of pages that use
// the autoloader, are checked in a browser by scripts/size-pages.mjs (the second part). Each
// npm entry is only reported: bundled with its dependencies (Lit) and minified by esbuild, as a
// host app's bundler would do it.
import { readdirSync } from 'node:fs';

const elementTags = readdirSync(new URL('dist/elements', import.meta.url)).sort();

// esbuild warns that it drops `import './index.js'` of dist/define.js: the main entry has no
// side effect (package.json `sideEffects`), so that is what a host app's bundler should do.
const errorsOnly = (config) => ({ ...config, logLevel: 'error' });

export default [
  {
    name: 'dist/billing-elements.js (script tag, everything)',
    path: 'dist/billing-elements.js',
    gzip: true,
    // Already one minified file: measured as it is, not bundled again.
    disablePlugins: ['@size-limit/esbuild'],
  },
  ...elementTags.map((tag) => ({
    name: `billing-elements/${tag} + its dependencies`,
    path: `dist/elements/${tag}/define.js`,
    gzip: true,
    modifyEsbuildConfig: errorsOnly,
  })),
  {
    name: 'billing-elements/define + its dependencies',
    path: 'dist/define.js',
    gzip: true,
    modifyEsbuildConfig: errorsOnly,
  },
];
