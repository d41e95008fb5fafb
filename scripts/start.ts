// `npm start`: the billing sandbox and the demo host app on 127.0.0.1.
//   npm start -- --port 8080     (or PORT=8080 npm start; the next free port when busy)
import { parseArgs } from 'node:util';
import { startDemo } from '../demo/server.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', short: 'p' },
    host: { type: 'string' },
    'sandbox-port': { type: 'string' },
    'allow-origin': { type: 'string', multiple: true },
    help: { type: 'boolean', short: 'h' },
  },
});

if (values.help) {
  console.log(`Usage: npm start -- [--port 5173] [--host 127.0.0.1] [--sandbox-port 4010]
                    [--allow-origin https://your.site ...]

Starts the billing sandbox and the demo host app (Northwind Analytics).
--allow-origin lets pages on another origin call the demo's billing proxy (its allowedOrigins);
repeat it for several.
Environment: PORT and SANDBOX_PORT set the same ports as the options; ALLOWED_ORIGINS, a
comma-separated list, adds to --allow-origin.`);
  process.exit(0);
}

function portOf(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`${name} must be a port number (0-65535), not "${value}".`);
    process.exit(2);
  }
  return port;
}

const port = portOf(values.port ?? process.env.PORT, '--port') ?? 5173;
// A stable sandbox address is handier to bookmark; a free port is taken when 4010 is busy.
const sandboxPort =
  portOf(values['sandbox-port'] ?? process.env.SANDBOX_PORT, '--sandbox-port') ?? 4010;

const allowedOrigins = [
  ...(values['allow-origin'] ?? []),
  ...(process.env.ALLOWED_ORIGINS ?? '').split(','),
]
  .map((origin) => origin.trim())
  .filter((origin) => origin !== '');

let demo: Awaited<ReturnType<typeof startDemo>>;
try {
  demo = await startDemo({
    port,
    sandboxPort,
    allowedOrigins,
    ...(values.host ? { host: values.host } : {}),
    logLevel: 'warn',
  });
} catch (error) {
  // A wrong --allow-origin is the likely one: the proxy's option check names it.
  console.error(error instanceof TypeError ? error.message : error);
  process.exit(2);
}

const bold = (text: string) => (process.stdout.isTTY ? `\x1b[1m${text}\x1b[22m` : text);
const dim = (text: string) => (process.stdout.isTTY ? `\x1b[2m${text}\x1b[22m` : text);
const { sandbox } = demo;
console.log(`
  ${bold('Northwind Analytics')}, the billing-elements demo, is running.

  Open            ${bold(`${demo.url}/`)}${dim('   sign in as any of the sandbox customers')}
  Script-tag page ${demo.url}/site/
  Billing proxy   ${demo.url}/billing${allowedOrigins.length > 0 ? dim(`   also for ${allowedOrigins.join(', ')}`) : ''}
${demo.url.endsWith(`:${port}`) || port === 0 ? '' : dim(`  (port ${port} was busy)\n`)}
  Sandbox         ${sandbox.url}
${sandbox.url.endsWith(`:${sandboxPort}`) || sandboxPort === 0 ? '' : dim(`  (port ${sandboxPort} was busy)\n`)}    API           ${sandbox.apiUrl}/v1   ${dim(`HTTP Basic ${sandbox.agentKey}:${sandbox.apiKey}`)}
    Hosted pages  ${sandbox.hostedUrl}
    Portal script ${sandbox.portalScriptUrl}
    Control API   ${sandbox.url}/_sandbox/

  ${dim('Ctrl+C stops both.')}
`);

let stopping = false;
async function stop(signal: NodeJS.Signals): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(dim(`\n  ${signal}: stopping…`));
  const timer = setTimeout(() => process.exit(1), 5000);
  timer.unref();
  try {
    await demo.close();
    process.exit(0);
  } catch (error) {
    console.error(error);
    process.exit(1);
  }
}
process.on('SIGINT', (signal) => void stop(signal));
process.on('SIGTERM', (signal) => void stop(signal));
