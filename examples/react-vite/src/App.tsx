import { useState } from 'react';
import type { BillingPurchaseEvent } from 'billing-elements';

export function App() {
  const [seats, setSeats] = useState<number | null>(null);
  const onPurchase = (event: BillingPurchaseEvent) =>
    setSeats(event.detail.usage.QuantityIncluded ?? null);

  return (
    <main>
      <h1>Your plan</h1>
      <usage-meter feature="seats" warningThreshold={0.7} theme="light" />
      <buy-feature feature="seats" label="seats" max={20} onbilling-purchase={onPurchase} />
      {seats !== null && <p role="status">You now have {seats} seats.</p>}
      <billing-portal />
    </main>
  );
}
