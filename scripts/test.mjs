// `npm test`: every check of the project, in order, counted. The last line is
// `N passed, N failed` (`, N skipped` when a test was skipped) over all of them; the exit code is
// non-zero on any failure. `node scripts/test.mjs node browser-firefox` runs only the named
// stages; `browser` stands for the three browser engines' stages, which run side by side (their
// time is mostly spent waiting on the page, not on the CPU), as do the faults, runtimes and
// integrations stages; TEST_SERIAL=1 runs them in turn.
import { AsyncLocalStorage } from 'node:async_hooks';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { findChrome, findRedisServer } from './prereqs.mjs';

const root = new URL('..', import.meta.url).pathname;
const wanted = process.argv.slice(2);

function filesUnder(dir, pattern) {
  const abs = join(root, dir);
  if (!existsSync(abs)) return [];
  const out = [];
  for (const name of readdirSync(abs)) {
    const rel = join(dir, name);
    if (statSync(join(root, rel)).isDirectory()) out.push(...filesUnder(rel, pattern));
    else if (pattern.test(name)) out.push(rel);
  }
  return out.sort();
}

/** Where a stage that runs beside others collects its output, printed in one piece at its end. */
const bufferedOutput = new AsyncLocalStorage();

function run(cmd, args, env = {}) {
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(cmd, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const buffer = bufferedOutput.getStore();
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (buffer) buffer.push(chunk);
      else process.stdout.write(chunk);
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
      if (buffer) buffer.push(chunk);
      else process.stderr.write(chunk);
    });
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

const bin = (name) => join(root, 'node_modules', '.bin', name);

/** A check that counts as one test. */
async function single(cmd, args) {
  const { code } = await run(cmd, args);
  return { passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1 };
}

/** Node's test runner on some files; counts from its spec reporter's summary. */
async function nodeTests(files, extraEnv = {}, runnerArgs = []) {
  if (files.length === 0) return { passed: 0, failed: 0 };
  const { code, output } = await run(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-reporter=spec', ...runnerArgs, ...files],
    extraEnv,
  );
  const count = (label) => Number(output.match(new RegExp(`^ℹ ${label} (\\d+)`, 'm'))?.[1] ?? 0);
  const passed = count('pass');
  let failed = count('fail') + count('cancelled');
  if (code !== 0 && failed === 0) failed = 1;
  return { passed, failed, skipped: count('skipped'), failures: failingTests(output) };
}

/**
 * The tests the spec reporter lists under its closing "✖ failing tests:" heading, each with the
 * first lines of its error (not its stack), so that a log kept only in its last lines still says
 * what went wrong.
 */
function failingTests(output) {
  const [, listed = ''] = output.split(/^✖ failing tests:$/m);
  const failures = [];
  let at;
  for (const line of listed.split('\n')) {
    const location = line.match(/^test at (\S+)$/);
    const failed = line.match(/^✖ (.+?)(?: \([\d.]+ms\))?$/);
    if (location) at = location[1];
    else if (failed) {
      const where = at ? `${at.replace(`${root}/`, '').replace(/:\d+:\d+$/, '')}: ` : '';
      failures.push({ name: `${where}${failed[1]}`, why: [], stack: false });
      at = undefined;
    } else {
      // The error's message: its lines up to its stack.
      const said = line.trim();
      const last = failures.at(-1);
      if (!last || last.stack || said === '') continue;
      if (said.startsWith('at ')) last.stack = true;
      else if (last.why.length < 3) last.why.push(said.slice(0, 300));
    }
  }
  return failures.map(({ name, why }) => [name, ...why].join('\n      '));
}

/** Ports already given to a test server of this run. */
const portsGiven = new Set();

/**
 * A free port for a test server, never one given before in this run: the engines' runners start
 * side by side, and web-test-runner's own choice (the first free one from 8000) would give two
 * of them the same port.
 */
async function freePort() {
  for (;;) {
    const port = await new Promise((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(0, () => {
        const { port: chosen } = server.address();
        server.close(() => resolve(chosen));
      });
    });
    if (!portsGiven.has(port)) {
      portsGiven.add(port);
      return port;
    }
  }
}

/** The browser tests (test/client, test/elements) in one engine: see web-test-runner.config.mjs. */
async function browserTests(engine) {
  const files = ['test/client', 'test/elements'].flatMap((dir) => filesUnder(dir, /\.test\.ts$/));
  if (files.length === 0) return { passed: 0, failed: 0 };
  const countFile = join(tmpdir(), `wtr-count-${engine}-${process.pid}.json`);
  rmSync(countFile, { force: true });
  // tsx lets the runner's config load the TypeScript test server (real proxy over real sandbox).
  const wtr = join(root, 'node_modules', '@web', 'test-runner', 'dist', 'bin.js');
  const port = String(await freePort());
  const { code, output } = await run(
    process.execPath,
    ['--import', 'tsx', wtr, '--config', 'web-test-runner.config.mjs', '--port', port],
    {
      TEST_ENGINE: engine,
      ...(engine === 'chromium' ? { CHROME_PATH: findChrome() } : {}),
      WTR_COUNT_FILE: countFile,
    },
  );
  if (!existsSync(countFile)) {
    // The runner stopped before the end of its run (a fatal error, a crash): its last lines say
    // why, kept with the failure so that the closing summary shows them.
    const last = output.trim().split('\n').slice(-12);
    return {
      passed: 0,
      failed: 1,
      failures: [`the runner stopped (exit ${code}):\n      ${last.join('\n      ')}`],
    };
  }
  const counted = JSON.parse(readFileSync(countFile, 'utf8'));
  rmSync(countFile, { force: true });
  if (code !== 0 && counted.failed === 0) counted.failed = 1;
  return counted;
}

const stages = {
  async typecheck() {
    return single(bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']);
  },
  // ESLint, then Prettier's check: a file left unformatted fails the stage like a lint error.
  async lint() {
    const eslint = await single(bin('eslint'), ['--max-warnings', '0', '.']);
    const prettier = await single(bin('prettier'), ['--check', '--log-level', 'warn', '.']);
    return { passed: eslint.passed + prettier.passed, failed: eslint.failed + prettier.failed };
  },
  async node() {
    const files = [
      'test/contract',
      'test/texts',
      'test/sandbox',
      'test/server',
      'test/build',
    ].flatMap((dir) => filesUnder(dir, /\.test\.ts$/));
    return nodeTests(files, { REDIS_SERVER: findRedisServer() });
  },
  'browser-chromium': () => browserTests('chromium'),
  'browser-firefox': () => browserTests('firefox'),
  'browser-webkit': () => browserTests('webkit'),
  // Builds the package (when dist/ is stale) for the e2e stage too. Two checks: the size budgets
  // (pages measured in Chromium: scripts/size-pages.mjs), and docs/reference.md equal to a fresh
  // generation from the manifest.
  async size() {
    const budget = await single('npm', ['run', '--silent', 'size']);
    const docs = await single(process.execPath, ['scripts/docs.mjs', '--check']);
    return { passed: budget.passed + docs.passed, failed: budget.failed + docs.failed };
  },
  // Two files at a time: each starts its own demo and browser, and spends much of its time
  // waiting on pages; Node's default on a two-core machine would be one.
  async e2e() {
    const files = filesUnder('test/e2e', /\.test\.ts$/);
    if (files.length === 0) return { passed: 0, failed: 0 };
    return nodeTests(files, { CHROME_PATH: findChrome() }, [
      '--test-concurrency=2',
      '--test-timeout=300000',
    ]);
  },
  // Real processes killed and restarted: the proxy (SIGKILL at named points of 200 purchases,
  // SIGTERM), redis-server (restarted on its append-only file). Each prints its figures. The
  // files run side by side: they spend most of their time waiting out the leases of dead owners.
  async faults() {
    return nodeTests(
      filesUnder('test/faults', /\.test\.ts$/),
      { REDIS_SERVER: findRedisServer() },
      ['--test-concurrency=3'],
    );
  },
  // The packed proxy on Node 20, the Node LTS, Bun, Deno and Cloudflare Workers (workerd): one
  // app installed once outside the repository, the same scenario on each (test/runtimes).
  async runtimes() {
    return nodeTests(filesUnder('test/runtimes', /\.test\.ts$/));
  },
  // The apps of examples/, each installed from the packed package (packed once here) in a
  // folder outside the repository, built, started and driven in Chromium: one test per app and
  // path (test/integrations). Files run three at a time: most of their time is npm, builds and
  // pages waiting on the network, not the CPU.
  async integrations() {
    const files = filesUnder('test/integrations', /\.test\.ts$/);
    if (files.length === 0) return { passed: 0, failed: 0 };
    const started = Date.now();
    const build = await run(process.execPath, ['scripts/build.mjs', '--quiet', '--if-needed']);
    if (build.code !== 0) return { passed: 0, failed: 1 };
    const packDir = mkdtempSync(join(tmpdir(), 'billing-pack-'));
    try {
      const pack = await run('npm', ['pack', '--ignore-scripts', '--pack-destination', packDir]);
      const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
      const tarball = join(packDir, `billing-elements-${version}.tgz`);
      if (pack.code !== 0 || !existsSync(tarball)) return { passed: 0, failed: 1 };
      const result = await nodeTests(
        files,
        { BILLING_TARBALL: tarball, CHROME_PATH: findChrome() },
        ['--test-concurrency=3'],
      );
      console.log(`integrations: ${((Date.now() - started) / 1000).toFixed(1)} s`);
      return result;
    } finally {
      rmSync(packDir, { recursive: true, force: true });
    }
  },
};

/** Names that stand for several stages. */
const aliases = { browser: ['browser-chromium', 'browser-firefox', 'browser-webkit'] };

const selected = (wanted.length > 0 ? wanted : Object.keys(stages)).flatMap(
  (name) => aliases[name] ?? [name],
);
for (const name of selected) {
  if (!stages[name]) {
    const known = [...Object.keys(stages), ...Object.keys(aliases)].join(', ');
    console.error(`Unknown stage "${name}". Stages: ${known}`);
    process.exit(2);
  }
}

/**
 * Stages that may run beside each other, by group: the browser engines (each on its own ports),
 * and the stages of real processes and packed apps (faults, runtimes, integrations), whose time
 * is mostly spent waiting on child processes, leases and installs rather than on the CPU.
 */
const groups = new Map([
  ...aliases.browser.map((name) => [name, 'browsers']),
  ['faults', 'processes'],
  ['runtimes', 'processes'],
  ['integrations', 'processes'],
]);
const serial = process.env.TEST_SERIAL === '1';

/** The selected stages in batches: consecutive side-by-side stages share one (unless serial). */
const batches = [];
for (const name of selected) {
  const last = batches.at(-1);
  if (!serial && last && groups.has(name) && groups.get(name) === groups.get(last[0]))
    last.push(name);
  else batches.push([name]);
}

async function runStage(name) {
  const started = Date.now();
  let result;
  try {
    result = await stages[name]();
  } catch (error) {
    console.error(`[${name}] ${error instanceof Error ? error.message : error}`);
    result = { passed: 0, failed: 1 };
  }
  return { ...result, seconds: (Date.now() - started) / 1000 };
}

const results = new Map();
for (const batch of batches) {
  if (batch.length === 1) {
    console.log(`\n━━ ${batch[0]} ━━`);
    results.set(batch[0], await runStage(batch[0]));
    continue;
  }
  console.log(`\n━━ ${batch.join(', ')}: side by side, each printed when it ends ━━`);
  await Promise.all(
    batch.map(async (name) => {
      const buffer = [];
      const result = await bufferedOutput.run(buffer, () => runStage(name));
      console.log(`\n━━ ${name} ━━`);
      process.stdout.write(Buffer.concat(buffer.map((chunk) => Buffer.from(chunk))));
      results.set(name, result);
    }),
  );
}

const totals = { passed: 0, failed: 0, skipped: 0 };
const rows = [];
for (const name of selected) {
  const result = results.get(name);
  const skipped = result.skipped ?? 0;
  rows.push(
    `${name.padEnd(16)} ${String(result.passed).padStart(4)} passed ${String(result.failed).padStart(3)} failed` +
      `${skipped ? ` ${String(skipped).padStart(3)} skipped` : ' '.repeat(12)}  ${result.seconds.toFixed(1)} s`,
  );
  totals.passed += result.passed;
  totals.failed += result.failed;
  totals.skipped += skipped;
}
console.log('\n' + rows.join('\n'));
const skippedNote = totals.skipped ? `, ${totals.skipped} skipped` : '';
const failures = selected.flatMap((name) =>
  (results.get(name).failures ?? []).map((failure) => `  ${name}: ${failure}`),
);
if (failures.length > 0) console.log(['\nFailed:', ...failures].join('\n'));
console.log(`${totals.passed} passed, ${totals.failed} failed${skippedNote}`);
process.exit(totals.failed === 0 && totals.passed > 0 ? 0 : 1);
