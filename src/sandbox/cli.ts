import { parseArgs } from 'node:util';
import { FixtureError } from './fixtures/schema.js';
import { startSandbox } from './index.js';
import {
  DEFAULT_WEBHOOK_SECRET,
  WebhookTargetSchema,
  type WebhookTargetConfig,
} from './notifications/settings.js';

const USAGE = `Usage: npm run sandbox -- [--port 4010] [--host 127.0.0.1] [--fixtures file.json] [--state file.json] [--now ISO]
         [--webhook-url URL ...] [--webhook-secret SECRET] [--webhook-key KEY]`;

/** The targets of --webhook-url (repeatable), or the message that refuses them. */
function webhookTargets(values: {
  'webhook-url'?: string[] | undefined;
  'webhook-secret'?: string | undefined;
  'webhook-key'?: string | undefined;
}): WebhookTargetConfig[] | string {
  const urls = values['webhook-url'] ?? [];
  if (urls.length === 0 && (values['webhook-secret'] ?? values['webhook-key']) !== undefined) {
    return '--webhook-secret and --webhook-key need --webhook-url';
  }
  const targets: WebhookTargetConfig[] = [];
  for (const url of urls) {
    const parsed = WebhookTargetSchema.safeParse({
      url,
      secret: values['webhook-secret'] ?? DEFAULT_WEBHOOK_SECRET,
      ...(values['webhook-key'] === undefined ? {} : { key: values['webhook-key'] }),
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const flag = { url: '--webhook-url', secret: '--webhook-secret', key: '--webhook-key' }[
        String(issue?.path[0]) as 'url' | 'secret' | 'key'
      ];
      return `${flag ?? '--webhook-url'} ${issue?.message ?? 'is invalid'}, got '${url}'`;
    }
    targets.push(parsed.data);
  }
  return targets;
}

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
        'webhook-url': { type: 'string', multiple: true },
        'webhook-secret': { type: 'string' },
        'webhook-key': { type: 'string' },
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
  const webhooks = webhookTargets(values);
  if (typeof webhooks === 'string') {
    console.error(`${webhooks}\n${USAGE}`);
    process.exit(2);
  }
  const sandbox = await startSandbox({
    webhooks,
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
  for (const target of sandbox.webhookTargets()) {
    const given = webhooks.find((candidate) => candidate.url === target.url);
    const secret = given ? given.secret : '(from the fixtures)';
    console.log(`  webhook            ${target.url}   key ${target.key}   secret ${secret}`);
  }
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
