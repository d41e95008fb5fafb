import { defaultFixtures, type SandboxFixtures } from '../src/sandbox/index.js';

/** The default business with `count` generated customers in every situation, for load tests. */
export function largeFixture(count: number): SandboxFixtures {
  const fixtures = defaultFixtures();
  const customers: NonNullable<SandboxFixtures['customers']> = [];
  const offers = ['pro', 'pro', 'pro', 'starter', 'business'];
  for (let i = 0; i < count; i++) {
    const offer = offers[i % offers.length] as string;
    const quantities: Record<string, number> =
      offer === 'starter'
        ? { projects: i % 3, 'api-calls': i % 900 }
        : { seats: 1 + (i % 4), projects: i % 9, 'api-calls': i * 7 };
    customers.push({
      reference: `customer-${String(i).padStart(4, '0')}`,
      name: `Customer ${i}`,
      email: `customer-${i}@example.com`,
      paymentMethod: 'valid',
      subscriptions: [{ offer, quantities, ...(i % 7 === 0 ? { discounts: ['twenty-off'] } : {}) }],
    });
  }
  return { ...fixtures, customers };
}
