// Browser tests in a real Chromium (Debian's, or CHROME_PATH). The test server mounts the real
// billing proxy over a real sandbox: see test/browser-server.ts.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { defaultReporter, summaryReporter } from '@web/test-runner';
import { existsSync, writeFileSync } from 'node:fs';
import { CHROME_FLAGS, findChrome } from './scripts/prereqs.mjs';

/** Writes the pass/fail counts for scripts/test.mjs, which prints the closing line. */
function countReporter() {
  return {
    onTestRunFinished({ sessions }) {
      let passed = 0;
      let failed = 0;
      const walk = (suite) => {
        for (const test of suite.tests) {
          if (test.skipped) continue;
          if (test.passed) passed += 1;
          else failed += 1;
        }
        for (const child of suite.suites) walk(child);
      };
      for (const session of sessions) {
        if (session.testResults) walk(session.testResults);
        if (!session.passed && (session.errors?.length ?? 0) > 0) failed += 1;
      }
      if (process.env.WTR_COUNT_FILE) writeFileSync(process.env.WTR_COUNT_FILE, JSON.stringify({ passed, failed }));
    },
  };
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
  testFramework: { config: { timeout: 10000 } },
  browsers: [
    chromeLauncher({
      launchOptions: { executablePath: findChrome(), headless: true, args: CHROME_FLAGS },
    }),
  ],
  plugins,
  reporters: [defaultReporter(), summaryReporter(), countReporter()],
};
