import { SCENARIOS, fallbackName, type DemoCustomer } from './customers.js';

// Names and e-mails of the demo's accounts, read once from the sandbox's control API: the
// fixtures are the demo's seed data, the way a real app has its own user table.

export interface SandboxAccess {
  url: string;
  agentKey: string;
  apiKey: string;
}

export type Directory = ReadonlyMap<string, DemoCustomer>;

export function basicAuth(sandbox: SandboxAccess): string {
  return `Basic ${Buffer.from(`${sandbox.agentKey}:${sandbox.apiKey}`).toString('base64')}`;
}

function readString(record: unknown, key: string): string | undefined {
  if (typeof record !== 'object' || record === null) return undefined;
  const value = (record as Record<string, unknown>)[key];
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

export async function loadDirectory(sandbox: SandboxAccess): Promise<Directory> {
  const entries = await Promise.all(
    SCENARIOS.map(async (scenario): Promise<[string, DemoCustomer]> => {
      const response = await fetch(
        `${sandbox.url}/_sandbox/customers/${encodeURIComponent(scenario.reference)}`,
        { headers: { authorization: basicAuth(sandbox), accept: 'application/json' } },
      );
      if (!response.ok) {
        throw new Error(
          `The sandbox has no customer "${scenario.reference}" (${response.status}): the demo needs the default fixtures.`,
        );
      }
      const body = (await response.json()) as { customer?: unknown };
      const name = readString(body.customer, 'Name') ?? fallbackName(scenario.reference);
      const email = readString(body.customer, 'Email') ?? `${scenario.reference}@example.com`;
      return [scenario.reference, { ...scenario, name, email }];
    }),
  );
  return new Map(entries);
}
