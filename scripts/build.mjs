// `npm run build`: everything the published package contains, into dist/ (plus the manifest).
//   dist/index.js, dist/define.js, dist/elements/<tag>/define.js, dist/chunks/   npm ES modules
//   dist/billing-elements.js                          the self-contained script-tag file
//   dist/billing-elements.fr.js                       its French texts, loaded on demand
//   dist/cdn/                                         the autoloader and per-element modules
//   dist/server/, dist/sandbox/, dist/contract/       Node 20 JavaScript, one file per module (tsc)
//   dist/types/                                       declarations of every entry point (tsc; the
//                                                     contract's without zod: contract-types.mjs)
//   custom-elements.json                              the custom-elements manifest
// Usage: node scripts/build.mjs [--quiet] [--if-needed]   (--if-needed: only when dist/ is stale)
import { spawn } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rewriteContractDeclarations } from './contract-types.mjs';
import { writeManifest } from './docs.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
let quiet = process.argv.includes('--quiet');
const log = (message) => {
  if (!quiet) console.log(message);
};

/** Files under a directory, recursively, as absolute paths. */
function walk(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** `tsc -p <project>` into outDir, in a child process. */
function tsc(project, outDir) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [join(root, 'node_modules/typescript/bin/tsc'), '-p', project, '--outDir', outDir],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`tsc -p ${project} failed:\n${output.trim()}`)),
    );
  });
}

async function viteBuild(out, mode) {
  const { build } = await import('vite');
  await build({
    root,
    configFile: join(root, 'vite.config.ts'),
    mode,
    // Vite's file list would name the staging folder: the summary at the end says it instead.
    logLevel: 'warn',
    build: { outDir: out },
  });
}

/**
 * Node entries run from dist/ with plain `node`: files that the sandbox or the proxy read next to
 * their modules at run time (HTML, CSS, JSON, browser scripts) are copied beside the compiled
 * JavaScript; TypeScript sources and tests are not.
 */
function copyRuntimeAssets(out) {
  for (const area of ['server', 'sandbox', 'contract']) {
    for (const file of walk(join(root, 'src', area))) {
      if (/\.(ts|tsx|mts|cts)$/.test(file) || /\.test\./.test(file)) continue;
      cpSync(file, join(out, relative(join(root, 'src'), file)));
    }
  }
}

/** The `billing-sandbox` command: a node shebang (whatever the source says) and the x bit. */
function finishBin(out) {
  const cli = join(out, 'sandbox', 'cli.js');
  if (!existsSync(cli)) return;
  const code = readFileSync(cli, 'utf8').replace(/^#![^\n]*\n/, '');
  writeFileSync(cli, `#!/usr/bin/env node\n${code}`);
  chmodSync(cli, 0o755);
}

/** Framework typings are hand-written declarations (they augment optional modules): copied. */
function copyDeclarationFiles(out) {
  for (const file of walk(join(root, 'src', 'jsx'))) {
    if (file.endsWith('.d.ts')) cpSync(file, join(out, 'types', relative(join(root, 'src'), file)));
  }
}

/** Replaces dist/ with a finished build; another build swapping at the same time wins or loses whole. */
function swapIn(staging) {
  const previous = `${staging}-previous`;
  for (let attempt = 1; ; attempt += 1) {
    try {
      if (existsSync(dist)) renameSync(dist, previous);
      renameSync(staging, dist);
      break;
    } catch (error) {
      if (attempt >= 5) throw error;
    } finally {
      rmSync(previous, { recursive: true, force: true });
    }
  }
}

export async function buildPackage(options = {}) {
  if (options.quiet !== undefined) quiet = options.quiet;
  const started = Date.now();
  // Built aside, then swapped in whole: whoever reads dist/ meanwhile (a test, a second build
  // in the same tree) sees the old build or the new one, never half of one.
  const staging = join(root, 'node_modules', '.cache', 'billing-elements', `dist-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  try {
    // tsc runs in child processes meanwhile: the declarations, and the Node entries' JavaScript.
    const compiled = Promise.all([
      tsc('tsconfig.build.json', join(staging, 'types')),
      tsc('tsconfig.node.json', staging),
    ]);
    compiled.catch(() => {}); // awaited below, after the browser builds
    await viteBuild(staging, 'production');
    await viteBuild(staging, 'script-tag');
    await viteBuild(staging, 'script-tag-texts');
    await viteBuild(join(staging, 'cdn'), 'modules');
    await compiled;
    rewriteContractDeclarations(join(staging, 'types'));
    copyRuntimeAssets(staging);
    finishBin(staging);
    copyDeclarationFiles(staging);
    await writeManifest(undefined, join(staging, 'custom-elements.json'));
    swapIn(staging);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  summarize(started);
}

/** What `npm run build` made, by part of the package. */
function summarize(started) {
  const parts = [
    ['npm ES modules', /^(index|define)\.js$|^(chunks|elements)\//],
    ['script-tag file', /^billing-elements(\.[a-z]{2})?\.js$/],
    ['script modules', /^cdn\//],
    ['Node code', /^(server|sandbox|contract)\//],
    ['declarations', /^types\//],
    ['manifest', /^custom-elements\.json$/],
  ];
  const files = walk(dist).map((file) => [relative(dist, file), statSync(file).size]);
  for (const [name, pattern] of parts) {
    const matched = files.filter(([path]) => pattern.test(path));
    const bytes = matched.reduce((sum, [, size]) => sum + size, 0);
    log(
      `  ${name.padEnd(16)} ${String(matched.length).padStart(4)} files ${(bytes / 1024).toFixed(1).padStart(8)} KiB`,
    );
  }
  log(`built dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** Newest modification time of the inputs of the build. */
function newestInput() {
  const inputs = [
    ...walk(join(root, 'src')),
    ...[
      'package.json',
      'vite.config.ts',
      'tsconfig.json',
      'tsconfig.build.json',
      'tsconfig.node.json',
    ].map((f) => join(root, f)),
    join(root, 'scripts', 'build.mjs'),
    join(root, 'scripts', 'build-plugins.ts'),
    join(root, 'scripts', 'docs.mjs'),
    join(root, 'scripts', 'contract-types.mjs'),
    join(root, 'custom-elements-manifest.config.mjs'),
  ].filter(existsSync);
  return Math.max(...inputs.map((file) => statSync(file).mtimeMs));
}

/** Builds unless dist/ is complete and newer than every input. */
export async function ensureBuilt(options = {}) {
  const outputs = [
    'index.js',
    'define.js',
    'billing-elements.js',
    'cdn/autoloader.js',
    'server/index.js',
    'server/worker.js',
    'sandbox/index.js',
    'types/index.d.ts',
  ];
  const oldest = Math.min(
    ...outputs.map((file) =>
      existsSync(join(dist, file)) ? statSync(join(dist, file)).mtimeMs : 0,
    ),
  );
  if (oldest > newestInput()) return false;
  await buildPackage(options);
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    if (process.argv.includes('--if-needed')) {
      if (!(await ensureBuilt())) log('dist/ is up to date');
    } else {
      await buildPackage();
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
