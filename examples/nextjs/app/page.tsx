import { connection } from 'next/server';
import { billing, currentCustomer } from '@/lib/billing';
import { BillingPanel } from './billing-panel';

export default async function Page() {
  // Rendered per request: isEntitled reads the customer's billing (and the clock, for its
  // short cache), which must not be frozen into a prerendered page.
  await connection();
  const sso = await billing.isEntitled(currentCustomer(), 'sso');
  return (
    <main>
      <h1>Your plan</h1>
      <p id="sso">Single sign-on: {sso ? 'included in your plan' : 'not in your plan'}</p>
      <BillingPanel />
    </main>
  );
}
