import { addMonthsUtc } from '../clock.js';
import type { CatalogOffer } from '../catalog.js';

/** End of the period that starts at `startMs` for an offer's recurrence. */
export function periodEndMs(offer: CatalogOffer, startMs: number): number {
  const months = offer.durationRecurrence * (offer.unitRecurrence === 'Year' ? 12 : 1);
  return addMonthsUtc(startMs, months);
}

/** First day of the month of `ms`, 00:00 UTC. */
export function startOfMonthMs(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

export function invoiceNumber(id: number, issueMs: number): string {
  return `INV-${new Date(issueMs).getUTCFullYear()}-${String(id).padStart(6, '0')}`;
}
