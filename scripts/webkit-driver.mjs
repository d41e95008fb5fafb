// WebKit for the tests: WebKitGTK's WebDriver (WebKitWebDriver), which starts WebKitGTK's
// MiniBrowser, on a virtual display of its own. MiniBrowser has no headless mode, so it draws on
// an Xvfb started here; Xvfb picks a free display itself (-displayfd), so runs side by side (the
// browser tests and the end-to-end smoke, or two people on one machine) never race for one.
// Used by web-test-runner.config.mjs and test/e2e/engines.ts.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { findWebKitBrowser, findWebKitDriver, findXvfb } from './prereqs.mjs';

const STARTUP_TIMEOUT_MS = 15_000;
/** Room for the demo's wide layout; MiniBrowser's window is sized by the tests. */
const SCREEN = '1600x1200x24';

/**
 * WebDriver capabilities that start MiniBrowser under automation (WebDriver classic only), with
 * its `extraArgs` (`--dark-mode` for a dark colour-scheme preference).
 */
export function webkitCapabilities({ extraArgs = [] } = {}) {
  return {
    browserName: 'MiniBrowser',
    // webdriverio would otherwise ask for a WebDriver BiDi session, which WebKitWebDriver
    // refuses ("Failed to match capabilities").
    'wdio:enforceWebDriverClassic': true,
    'webkitgtk:browserOptions': {
      binary: findWebKitBrowser(),
      args: ['--automation', ...extraArgs],
    },
  };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Starts Xvfb on a free display and resolves with the display's number. */
function startXvfb() {
  // Descriptor 3 is a pipe on which Xvfb writes the display number it chose.
  const xvfb = spawn(findXvfb(), ['-displayfd', '3', '-screen', '0', SCREEN, '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  xvfb.stderr.on('data', (chunk) => (errors += chunk));
  const display = new Promise((resolve, reject) => {
    let written = '';
    const timer = setTimeout(
      () => reject(new Error(`Xvfb gave no display within ${STARTUP_TIMEOUT_MS} ms`)),
      STARTUP_TIMEOUT_MS,
    );
    xvfb.stdio[3].on('data', (chunk) => {
      written += chunk;
      if (written.includes('\n')) {
        clearTimeout(timer);
        resolve(written.trim());
      }
    });
    xvfb.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Xvfb stopped (exit ${code}) before it gave a display: ${errors.trim()}`));
    });
  });
  return { process: xvfb, display };
}

async function waitUntilReady(url, driver) {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  for (;;) {
    if (driver.exitCode !== null)
      throw new Error(`WebKitWebDriver stopped (exit ${driver.exitCode})`);
    try {
      const { value } = await (await fetch(url)).json();
      if (value?.ready) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline)
      throw new Error(`WebKitWebDriver did not answer at ${url} within ${STARTUP_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function stopped(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/**
 * Starts Xvfb and WebKitWebDriver on free ports. Resolves with where a WebDriver client connects
 * (`hostname`, `port`) and `stop()`, which ends both; they are also ended if this process exits.
 * `env` is added to the driver's environment, which the browsers it starts inherit
 * (XDG_CONFIG_HOME for GTK settings such as gtk-enable-animations).
 */
export async function startWebKitDriver({ env = {} } = {}) {
  const xvfb = startXvfb();
  let driver;
  const killAll = () => {
    driver?.kill('SIGTERM');
    xvfb.process.kill('SIGTERM');
  };
  process.once('exit', killAll);
  try {
    const display = await xvfb.display;
    const port = await freePort();
    driver = spawn(findWebKitDriver(), [`--port=${port}`, '--host=local'], {
      env: { ...process.env, ...env, DISPLAY: `:${display}` },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await waitUntilReady(`http://127.0.0.1:${port}/status`, driver);
    return {
      hostname: '127.0.0.1',
      port,
      display,
      async stop() {
        process.off('exit', killAll);
        await stopped(driver);
        await stopped(xvfb.process);
      },
    };
  } catch (error) {
    process.off('exit', killAll);
    killAll();
    throw error;
  }
}
