import * as z from 'zod';

// Timestamps as clients write them. The seed says "ISO 8601 UTC strings"; clients in the wild
// send every extended ISO 8601 form: `Z` or an offset written `+02:00`, `+0200` or `+02`, with or
// without seconds and fractional seconds (any number of digits: .NET writes seven). A space may
// stand for the `T`, as SQL-style formatters write it. Anything else is refused: a date alone,
// a time without a zone (whose instant is unknown) or an impossible date such as February 30.

const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)$/;

const MINUTE_MS = 60_000;
/** The widest offset ISO 8601 zones use in practice. */
const MAX_OFFSET_MINUTES = 18 * 60;

/** Milliseconds since the epoch of an ISO 8601 timestamp with a zone, or null. */
export function parseTimestamp(text: string): number | null {
  const match = ISO_8601.exec(text);
  if (!match) return null;
  const [, year, month, day, hour, minute, second = '0', fraction = '', zone = 'Z'] = match;
  const fields = [year, month, day, hour, minute, second].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const [y, mo, d, h, mi, s] = fields;
  if (mo < 1 || mo > 12 || h > 23 || mi > 59 || s > 59) return null;
  const daysInMonth = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  if (d < 1 || d > daysInMonth) return null;
  const ms = Number(fraction.padEnd(3, '0').slice(0, 3));
  const offset = zoneOffsetMinutes(zone);
  if (offset === null) return null;
  return Date.UTC(y, mo - 1, d, h, mi, s, ms) - offset * MINUTE_MS;
}

/** Offset east of UTC in minutes, or null when it is not a real offset (beyond ±18:00). */
function zoneOffsetMinutes(zone: string): number | null {
  if (zone === 'Z' || zone === 'z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
  if (minutes > 59 || hours * 60 + minutes > MAX_OFFSET_MINUTES) return null;
  return sign * (hours * 60 + minutes);
}

export const TIMESTAMP_MESSAGE =
  'must be an ISO 8601 timestamp with a zone, such as 2026-11-16T08:00:00Z or 2026-11-16T10:00:00+02:00';

/** A timestamp field in any ISO 8601 form above, kept as the client wrote it. */
export const TimestampSchema = z
  .string({ error: TIMESTAMP_MESSAGE })
  .refine((text) => parseTimestamp(text) !== null, TIMESTAMP_MESSAGE);

/** Milliseconds of a timestamp already validated by `TimestampSchema`. */
export function timestampMs(text: string): number {
  const ms = parseTimestamp(text);
  if (ms === null) throw new Error(`unreachable: '${text}' was validated as a timestamp`);
  return ms;
}
