// The billing-service sandbox in a process of its own, so that it outlives the proxy processes
// the fault tests kill. FAULT_CUSTOMERS lists `prefix:count` groups (`kill:200,drain:6`): each
// customer (`kill-000`...) is on the pro plan at its 5 included seats, so that buying one more
// seat is charged and invoiced. The clock is frozen: a price confirmed once stays the price.
// Prints one JSON line (where it listens, its credentials) and runs until SIGTERM.
import { defaultFixtures, startSandbox } from '../../src/sandbox/index.js';

const fixtures = defaultFixtures();
for (const group of (process.env.FAULT_CUSTOMERS ?? '').split(',').filter(Boolean)) {
  const [prefix, count] = group.split(':');
  for (let index = 0; index < Number(count); index++) {
    const reference = `${prefix}-${String(index).padStart(3, '0')}`;
    fixtures.customers?.push({
      reference,
      name: `Customer ${reference}`,
      email: `${reference}@example.test`,
      paymentMethod: 'valid',
      subscriptions: [{ offer: 'pro', quantities: { seats: 5, projects: 1, 'api-calls': 0 } }],
    });
  }
}

const sandbox = await startSandbox({ fixtures, now: '2026-03-10T12:00:00Z', log: () => {} });
const { url, apiUrl, agentKey, apiKey, businessId, segment, portalScriptUrl, portalSecret } =
  sandbox;
process.stdout.write(
  `${JSON.stringify({ url, apiUrl, agentKey, apiKey, businessId, segment, portalScriptUrl, portalSecret })}\n`,
);
process.on('SIGTERM', () => {
  void sandbox.close().then(() => process.exit(0));
});
