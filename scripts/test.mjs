// `npm test`: every check of the project, in order, counted. The last line is
// `N passed, N failed` over all of them; the exit code is non-zero on any failure.
// `node scripts/test.mjs node browser` runs only the named stages.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
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

function run(cmd, args, env = {}) {
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(cmd, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk) => {
      output += chunk;
      process.stdout.write(chunk);
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
      process.stderr.write(chunk);
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
async function nodeTests(files, extraEnv = {}) {
  if (files.length === 0) return { passed: 0, failed: 0 };
  const { code, output } = await run(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-reporter=spec', ...files],
    extraEnv,
  );
  const count = (label) => Number(output.match(new RegExp(`^ℹ ${label} (\\d+)`, 'm'))?.[1] ?? 0);
  const passed = count('pass');
  let failed = count('fail') + count('cancelled');
  if (code !== 0 && failed === 0) failed = 1;
  return { passed, failed };
}

const stages = {
  async typecheck() {
    return single(bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']);
  },
  async lint() {
    return single(bin('eslint'), ['--max-warnings', '0', '.']);
  },
  async node() {
    const files = ['test/contract', 'test/sandbox', 'test/server', 'test/build'].flatMap((dir) =>
      filesUnder(dir, /\.test\.ts$/),
    );
    return nodeTests(files, { REDIS_SERVER: findRedisServer() });
  },
  async browser() {
    const files = ['test/client', 'test/elements'].flatMap((dir) => filesUnder(dir, /\.test\.ts$/));
    if (files.length === 0) return { passed: 0, failed: 0 };
    const countFile = join(tmpdir(), `wtr-count-${process.pid}.json`);
    rmSync(countFile, { force: true });
    // tsx lets the runner's config load the TypeScript test server (real proxy over real sandbox).
    const wtr = join(root, 'node_modules', '@web', 'test-runner', 'dist', 'bin.js');
    const { code } = await run(
      process.execPath,
      ['--import', 'tsx', wtr, '--config', 'web-test-runner.config.mjs'],
      {
        CHROME_PATH: findChrome(),
        WTR_COUNT_FILE: countFile,
      },
    );
    const counted = existsSync(countFile)
      ? JSON.parse(readFileSync(countFile, 'utf8'))
      : { passed: 0, failed: 0 };
    if (code !== 0 && counted.failed === 0) counted.failed = 1;
    return counted;
  },
  // Builds the package (when dist/ is stale) for the e2e stage too. Two checks: the script-tag
  // file's gzip budget, and docs/reference.md equal to a fresh generation from the manifest.
  async size() {
    const budget = await single('npm', ['run', '--silent', 'size']);
    const docs = await single(process.execPath, ['scripts/docs.mjs', '--check']);
    return { passed: budget.passed + docs.passed, failed: budget.failed + docs.failed };
  },
  async e2e() {
    const files = filesUnder('test/e2e', /\.test\.ts$/);
    if (files.length === 0) return { passed: 0, failed: 0 };
    return nodeTests(files, { CHROME_PATH: findChrome() });
  },
};

const selected = wanted.length > 0 ? wanted : Object.keys(stages);
const totals = { passed: 0, failed: 0 };
const rows = [];
for (const name of selected) {
  const stage = stages[name];
  if (!stage) {
    console.error(`Unknown stage "${name}". Stages: ${Object.keys(stages).join(', ')}`);
    process.exit(2);
  }
  console.log(`\n━━ ${name} ━━`);
  const started = Date.now();
  let result;
  try {
    result = await stage();
  } catch (error) {
    console.error(`[${name}] ${error instanceof Error ? error.message : error}`);
    result = { passed: 0, failed: 1 };
  }
  rows.push(
    `${name.padEnd(10)} ${String(result.passed).padStart(4)} passed ${String(result.failed).padStart(3)} failed  ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  totals.passed += result.passed;
  totals.failed += result.failed;
}
console.log('\n' + rows.join('\n'));
console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed === 0 && totals.passed > 0 ? 0 : 1);
