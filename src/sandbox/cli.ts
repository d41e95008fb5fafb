import { parseArgs } from 'node:util';
import { FixtureError } from './fixtures/schema.js';
import { startSandbox } from './index.js';

const USAGE = `Usage: npm run sandbox -- [--port 4010] [--host 127.0.0.1] [--fixtures file.json] [--state file.json] [--now ISO]`;

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string', short: 'p' },
        host: { type: 'string' },
        fixtures: { type: 'string', short: 'f' },
        state: { type: 'string' },
        now: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = values.port === undefined ? 4010 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port must be an integer from 0 to 65535, got '${values.port}'\n${USAGE}`);
    process.exit(2);
  }
  const sandbox = await startSandbox({
    port,
    ...(values.host ? { host: values.host } : {}),
    ...(values.fixtures ? { fixtures: values.fixtures } : {}),
    ...(values.state ? { stateFile: values.state } : {}),
    ...(values.now ? { now: values.now } : {}),
  });
  console.log(`Billing service sandbox running
  base URL           ${sandbox.url}   (API under ${sandbox.apiUrl}/v1)
  hosted URL         ${sandbox.hostedUrl}
  portal script URL  ${sandbox.portalScriptUrl}
  business id        ${sandbox.businessId}
  segment            ${sandbox.segment}
  agent key          ${sandbox.agentKey}
  API key            ${sandbox.apiKey}
  portal secret      ${sandbox.portalSecret}
  control API        ${sandbox.url}/_sandbox/ (same credentials)`);
  const stop = () => {
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  if (error instanceof FixtureError) console.error(error.message);
  else if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE')
    console.error(`Port already in use: ${(error as Error).message}`);
  else console.error(error);
  process.exit(1);
});
