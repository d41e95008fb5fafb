// Child process of the benchmark: runs the sandbox alone, so that the load generator does not
// share its event loop. Prints one JSON line with the sandbox's URL and credentials.
import { startSandbox } from '../src/sandbox/index.js';
import { largeFixture } from './sandbox-fixture.js';

const count = Number(process.argv[2] ?? 1000);
const sandbox = await startSandbox({ fixtures: largeFixture(count), now: '2026-11-16T00:00:00Z' });
process.stdout.write(
  `${JSON.stringify({ url: sandbox.url, agentKey: sandbox.agentKey, apiKey: sandbox.apiKey })}\n`,
);
// The benchmark asks for the CPU time spent so far: a figure that machine load does not inflate.
process.on('message', (message) => {
  if (message === 'cpu') process.send?.(process.cpuUsage());
});
process.on('SIGTERM', () => {
  sandbox.close().then(() => process.exit(0));
});
