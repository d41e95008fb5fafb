import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  defaultFixtures,
  FixtureError,
  parseFixtures,
  startSandbox,
  type SandboxFixtures,
} from '../../src/sandbox/index.js';
import { link, quantityOf, startTestSandbox, usageBody } from './helpers.js';
import { openPage } from './hosted-pages.js';

const root = new URL('../..', import.meta.url).pathname;

function issuesOf(fixtures: unknown): { path: string; message: string }[] {
  try {
    parseFixtures(fixtures);
  } catch (error) {
    assert.ok(error instanceof FixtureError);
    return error.issues;
  }
  assert.fail('expected a FixtureError');
}

describe('fixtures', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sandbox-fixtures-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('accepts the default fixture with every situation the elements handle', () => {
    const parsed = parseFixtures(defaultFixtures());
    assert.deepEqual(
      parsed.customers.map((c) => c.reference),
      [
        'healthy',
        'no-payment-method',
        'capping-reached',
        'suspended',
        'starter-plan',
        'unlimited',
        'discounted',
        'pending',
        'no-subscription',
        'two-subscriptions',
      ],
    );
    assert.deepEqual(
      parsed.offers.filter((o) => o.inGrid).map((o) => o.reference),
      ['starter', 'pro', 'business'],
    );
    assert.deepEqual(
      parsed.offers.filter((o) => o.onRequest).map((o) => o.reference),
      ['enterprise'],
    );
    assert.equal(parsed.business.unpaidInvoiceThreshold, 2);
  });

  it('names the path of every problem', () => {
    const fixtures = defaultFixtures() as SandboxFixtures & Record<string, unknown>;
    const customers = fixtures.customers ?? [];
    const first = customers[0];
    if (!first?.subscriptions?.[0]) throw new Error('fixture changed');
    first.subscriptions[0].offer = 'gold';
    customers[1] = {
      ...customers[1],
      reference: 'healthy',
      email: 'not-an-email',
    } as (typeof customers)[number];
    const discounts = fixtures.discounts ?? [];
    if (discounts[0]) discounts[0].valueOff = 20_000;
    const pro = fixtures.offers.find((o) => o.reference === 'pro');
    pro?.features.push({ reference: 'sso', quantityIncluded: 3 });
    fixtures.extra = true;
    const issues = issuesOf(fixtures);
    const byPath = Object.fromEntries(issues.map((i) => [i.path, i.message]));
    assert.match(byPath['customers[1].email'] ?? '', /email/i);
    assert.match(byPath['discounts[0].valueOff'] ?? '', /10000/);
    assert.match(byPath['(root)'] ?? '', /extra/);
    // Cross-references are checked once the shape is right.
    const shapeOk = defaultFixtures();
    const c0 = shapeOk.customers?.[0];
    if (!c0?.subscriptions?.[0]) throw new Error('fixture changed');
    c0.subscriptions[0].offer = 'gold';
    c0.subscriptions[0].quantities = {};
    const c4 = shapeOk.customers?.[4];
    if (!c4?.subscriptions?.[0]) throw new Error('fixture changed');
    c4.subscriptions[0].quantities = { seats: 2 };
    c4.subscriptions[0].disabled = ['api-calls'];
    shapeOk.customers?.push({ ...c4, reference: 'starter-plan' });
    const cross = Object.fromEntries(issuesOf(shapeOk).map((i) => [i.path, i.message]));
    assert.equal(cross['customers[0].subscriptions[0].offer'], "unknown offer 'gold'");
    assert.equal(
      cross['customers[4].subscriptions[0].quantities.seats'],
      "feature 'seats' is not in offer 'starter'",
    );
    assert.equal(
      cross['customers[4].subscriptions[0].disabled[0]'],
      "feature 'api-calls' is not an OnOff feature",
    );
    assert.equal(cross['customers[10].reference'], "duplicate reference 'starter-plan'");
  });

  it('loads a JSON file, and says what is wrong with a bad one', async () => {
    const fixtures = defaultFixtures();
    fixtures.business.name = 'File Business';
    const good = join(dir, 'good.json');
    await writeFile(good, JSON.stringify(fixtures));
    const sandbox = await startSandbox({ fixtures: good, now: '2026-11-16T00:00:00Z' });
    try {
      const page = await openPage(`${sandbox.url}/`);
      assert.match(page.html, /File Business/);
    } finally {
      await sandbox.close();
    }
    const broken = join(dir, 'broken.json');
    await writeFile(broken, '{"business": ');
    await assert.rejects(startSandbox({ fixtures: broken }), (error: Error) => {
      assert.ok(error instanceof FixtureError);
      assert.match(error.message, /broken\.json is not valid JSON/);
      return true;
    });
    await assert.rejects(
      startSandbox({ fixtures: join(dir, 'missing.json') }),
      /Cannot read fixtures file .*missing\.json/,
    );
    const invalid = join(dir, 'invalid.json');
    await writeFile(
      invalid,
      JSON.stringify({ ...fixtures, business: { ...fixtures.business, currency: 'dollars' } }),
    );
    await assert.rejects(
      startSandbox({ fixtures: invalid }),
      /business\.currency: must be a three-letter currency code/,
    );
  });
});

describe('command line', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sandbox-cli-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  function run(
    args: string[],
    untilOutput?: RegExp,
  ): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/cli.ts', ...args], {
        cwd: root,
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (untilOutput?.test(stdout)) child.kill('SIGTERM');
      });
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  it('prints the base URL, hosted URL, portal script URL, business id and credentials', async () => {
    const { stdout } = await run(['--port', '0', '--now', '2026-11-16T00:00:00Z'], /control API/);
    assert.match(stdout, /base URL\s+http:\/\/127\.0\.0\.1:\d+/);
    assert.match(stdout, /hosted URL\s+http:\/\/127\.0\.0\.1:\d+\/hosted/);
    assert.match(stdout, /portal script URL\s+http:\/\/127\.0\.0\.1:\d+\/portal\.js/);
    assert.match(stdout, /business id\s+4242/);
    assert.match(stdout, /agent key\s+sandbox-agent/);
    assert.match(stdout, /API key\s+sandbox-api-key/);
    assert.match(stdout, /portal secret\s+sandbox-portal-secret/);
  });

  it('loads --fixtures and refuses bad flags and files with a message', async () => {
    const file = join(dir, 'f.json');
    const fixtures = defaultFixtures();
    fixtures.business.id = 777;
    await writeFile(file, JSON.stringify(fixtures));
    const ok = await run(['--port', '0', '--fixtures', file], /control API/);
    assert.match(ok.stdout, /business id\s+777/);
    const badPort = await run(['--port', 'abc']);
    assert.equal(badPort.code, 2);
    assert.match(badPort.stderr, /--port must be an integer/);
    const unknownFlag = await run(['--colour']);
    assert.equal(unknownFlag.code, 2);
    await writeFile(file, JSON.stringify({ ...fixtures, offers: [] }));
    const bad = await run(['--port', '0', '--fixtures', file]);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /offers: /);
  });
});

describe('persistence', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sandbox-state-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('survives a restart: state, clock and hosted links', async () => {
    const stateFile = join(dir, 'state.json');
    const first = await startTestSandbox({ stateFile });
    await first.api('POST', '/v1/Usage', usageBody('healthy', 'seats', { Increment: 4 }));
    await first.control('POST', '/clock', { advance: { days: 2 } });
    const upgrade =
      link((await first.api('GET', '/v1/Subscription/1001')).body, 'hosted-upgrade').href ?? '';
    await first.close();

    const saved = JSON.parse(await readFile(stateFile, 'utf8'));
    assert.equal(saved.format, 'billing-elements-sandbox-state');
    assert.deepEqual(await readdir(dir), ['state.json'], 'no temporary file left behind');

    const second = await startTestSandbox({ stateFile });
    try {
      assert.equal(await quantityOf(second, 'healthy', 'seats'), 7);
      assert.equal((await second.control('GET', '/clock')).body.now, '2026-11-18T00:00:00.000Z');
      assert.equal((await second.customer('healthy')).invoices.length, 1);
      // A link made before the restart still opens (the token key is kept), on the new port.
      const moved = new URL(upgrade);
      moved.port = new URL(second.sandbox.url).port;
      assert.equal((await openPage(moved.toString())).status, 200);
      // Reset goes back to the fixtures and is persisted too.
      await second.control('POST', '/reset');
    } finally {
      await second.close();
    }
    const third = await startTestSandbox({ stateFile });
    try {
      assert.equal(await quantityOf(third, 'healthy', 'seats'), 3);
    } finally {
      await third.close();
    }
  });

  it('starts afresh when the fixtures changed, and refuses a file that is not a state file', async () => {
    const stateFile = join(dir, 'other.json');
    const a = await startTestSandbox({ stateFile });
    await a.api('POST', '/v1/Usage', usageBody('healthy', 'seats', { Increment: 1 }));
    await a.close();
    const fixtures = defaultFixtures();
    fixtures.business.name = 'Changed';
    const b = await startTestSandbox({ stateFile, fixtures });
    try {
      assert.equal(await quantityOf(b, 'healthy', 'seats'), 3);
    } finally {
      await b.close();
    }
    const notState = join(dir, 'not-state.json');
    await writeFile(notState, '{"hello": 1}');
    await assert.rejects(startSandbox({ stateFile: notState }), /is not a sandbox state file/);
  });

  it('refuses a damaged state at start, naming the wrong value, and leaves the file as it was', async () => {
    const stateFile = join(dir, 'damaged.json');
    const first = await startTestSandbox({ stateFile });
    await first.close();
    const saved = JSON.parse(await readFile(stateFile, 'utf8'));
    const index = saved.state.customers.findIndex(
      (customer: { reference: string }) => customer.reference === 'healthy',
    );
    saved.state.customers[index].paymentMethod = 'bitcoin';
    const damaged = JSON.stringify(saved);
    await writeFile(stateFile, damaged);
    await assert.rejects(
      startSandbox({ stateFile }),
      new RegExp(`damaged sandbox state \\(state\\.customers\\.${index}\\.paymentMethod: `),
    );
    assert.equal(await readFile(stateFile, 'utf8'), damaged);
  });
});
