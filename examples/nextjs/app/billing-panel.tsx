'use client';

import { useState } from 'react';
import 'billing-elements/define';
import type { BillingPurchaseEvent } from 'billing-elements';

export function BillingPanel() {
  const [seats, setSeats] = useState<number | null>(null);
  const onPurchase = (event: BillingPurchaseEvent) =>
    setSeats(event.detail.usage.QuantityIncluded ?? null);
  return (
    <section>
      <usage-meter feature="seats" />
      <buy-feature feature="seats" label="seats" onbilling-purchase={onPurchase} />
      {seats !== null && <p role="status">You now have {seats} seats.</p>}
      <billing-portal />
    </section>
  );
}
