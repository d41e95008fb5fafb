// Browser tests in a real browser of each engine: TEST_ENGINE=chromium (the default), firefox
// or webkit picks one (scripts/test.mjs runs the three). The test server mounts the real billing
// proxy over a real sandbox: see test/browser-server.ts.
//  - Chromium: Debian's (or CHROME_PATH) through puppeteer-core over the DevTools protocol.
//  - Firefox: Debian's Firefox ESR (or FIREFOX_PATH) through puppeteer-core over WebDriver BiDi.
//  - WebKit: WebKitGTK's MiniBrowser through its WebDriver (classic), on a virtual display.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { WebdriverLauncher } from '@web/test-runner-webdriver';
import { defaultReporter, summaryReporter } from '@web/test-runner';
import * as puppeteer from 'puppeteer-core';
import { existsSync, writeFileSync } from 'node:fs';
import { CHROME_FLAGS, findChrome, findFirefox } from './scripts/prereqs.mjs';
import { startWebKitDriver, webkitCapabilities } from './scripts/webkit-driver.mjs';

const ENGINES = ['chromium', 'firefox', 'webkit'];

/**
 * Why a test failed, on the line under its name: the first lines of its error, so that a log
 * kept only in its last lines (a CI summary) still says what went wrong.
 */
function reason(error) {
  const message = error?.message?.trim();
  if (!message) return '';
  const lines = message
    .split('\n')
    .slice(0, 4)
    .map((line) => line.slice(0, 300));
  return lines.map((line) => `\n      ${line}`).join('');
}

/**
 * Writes the pass/fail/skip counts and the failed tests' names (each with the start of its
 * error) for scripts/test.mjs, which prints the closing lines.
 */
function countReporter() {
  return {
    onTestRunFinished({ sessions }) {
      let passed = 0;
      let skipped = 0;
      const failures = [];
      const walk = (suite, file, path) => {
        for (const test of suite.tests) {
          if (test.skipped) skipped += 1;
          else if (test.passed) passed += 1;
          else failures.push(`${file}: ${[...path, test.name].join(' › ')}${reason(test.error)}`);
        }
        for (const child of suite.suites) walk(child, file, [...path, child.name]);
      };
      for (const session of sessions) {
        const file = session.testFile.replace(`${process.cwd()}/`, '');
        if (session.testResults) walk(session.testResults, file, []);
        if (!session.passed && (session.errors?.length ?? 0) > 0)
          failures.push(`${file}: ${session.errors[0].message ?? 'the file failed to run'}`);
      }
      if (process.env.WTR_COUNT_FILE)
        writeFileSync(
          process.env.WTR_COUNT_FILE,
          JSON.stringify({ passed, failed: failures.length, skipped, failures }),
        );
    },
  };
}

/** The web-test-runner launcher for WebKit: starts its own WebDriver (and display) and ends them. */
class WebKitLauncher extends WebdriverLauncher {
  #driver = null;

  constructor() {
    super({ capabilities: webkitCapabilities(), logLevel: 'error' });
  }

  async initialize(config, testFiles) {
    this.#driver = await startWebKitDriver();
    this.options.hostname = this.#driver.hostname;
    this.options.port = this.#driver.port;
    await super.initialize(config, testFiles);
    this.name = 'WebKit';
  }

  /**
   * Opens a test file's page, as the runner's own session manager does (without waiting for the
   * navigation), but with a failed navigation caught: the manager drops its promise, so a
   * navigation WebKitWebDriver refuses would be an unhandled rejection, which stops the whole
   * run with no results. It is tried once more; a second failure is said, and that file alone
   * then fails when it does not start in time.
   */
  async startSession(id, url) {
    await this.ensureManagerInitialized();
    const open = () => this.driverManager.startSession(id, url);
    open().catch((error) => {
      console.error(`WebKit did not open ${url} (${error?.message}); trying once more.`);
      return open().catch((again) =>
        console.error(`WebKit did not open ${url} again (${again?.message}).`),
      );
    });
  }

  async stop() {
    await super.stop();
    await this.#driver?.stop();
    this.#driver = null;
  }
}

function launcherFor(engine) {
  switch (engine) {
    case 'chromium':
      return chromeLauncher({
        launchOptions: { executablePath: findChrome(), headless: true, args: CHROME_FLAGS },
      });
    case 'firefox':
      return chromeLauncher({
        puppeteer,
        launchOptions: { browser: 'firefox', executablePath: findFirefox(), headless: true },
      });
    case 'webkit':
      return new WebKitLauncher();
    default:
      throw new Error(`TEST_ENGINE is "${engine}"; it is one of ${ENGINES.join(', ')}.`);
  }
}

let plugins = [esbuildPlugin({ ts: true, tsconfig: 'tsconfig.json', target: 'es2022' })];
// The runner is started with `node --import tsx` (scripts/test.mjs), so this TypeScript module
// loads: it mounts the real billing proxy over a real sandbox on the test server.
if (existsSync(new URL('./test/browser-server.ts', import.meta.url))) {
  const { browserTestServerPlugin } = await import('./test/browser-server.ts');
  plugins = [...plugins, browserTestServerPlugin()];
}

export default {
  files: ['test/client/**/*.test.ts', 'test/elements/**/*.test.ts'],
  nodeResolve: true,
  concurrency: 1,
  // A test's own waits are shorter and name what they waited for; this limit only catches a
  // test that hangs. CI machines are small and shared: a step that takes 1 s here can take 8
  // there (the first load of a French text table, a payment in the service's page).
  testFramework: { config: { timeout: 20000 } },
  browsers: [launcherFor(process.env.TEST_ENGINE || 'chromium')],
  plugins,
  reporters: [defaultReporter(), summaryReporter(), countReporter()],
};
