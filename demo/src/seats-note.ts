import { formatNumber, isUnlimited } from 'billing-elements';
import type { Usage, UsageStoreState } from 'billing-elements';
import { counted, word } from './words.js';

// The note of the billing page's seats card: what this customer has, what the plan includes,
// what can be removed, in the customer's own figures. It reads what the page already holds: the
// usage store's seats (included, the quantity the customer has) and its account (suspended,
// pending, no plan), and the number in use the page gives its <buy-feature> (`in-use`).

const FEATURE = 'seats';

export interface SeatsFacts {
  state: UsageStoreState;
  /** The page's count of seats in use (its `<buy-feature in-use>`), when it keeps one. */
  inUse: number | undefined;
}

/** The note's sentences, in the page's language; empty while nothing is known yet. */
export function seatsNote({ state, inUse }: SeatsFacts, formatOn: Element): string {
  const n = (value: number) => formatNumber(formatOn, value);
  if (state.status === 'idle' || state.status === 'loading' || state.status === 'error') return '';
  const seats = state.usages.find((usage) => usage.ReferenceFeature === FEATURE);
  if (!seats) return withoutSeats(state, n);

  const sentences: string[] = [];
  const have = seats.QuantityCurrent ?? 0;
  const included = isUnlimited(seats) ? undefined : seats.QuantityIncluded;
  // The seats the customer has come first, then what the plan includes: what more cost within
  // it, or what is billed on top beyond it.
  if (included !== undefined && have <= included)
    sentences.push(ofIncludedSentence(have, included, inUse, n));
  else sentences.push(haveSentence(have, inUse, n));
  if (isUnlimited(seats)) sentences.push(word('seats.unlimited'));
  else if (included !== undefined) {
    if (have > included) sentences.push(includedSentence(have, included, n));
    // A suspended subscription changes nothing until it is restarted: no removal to offer.
    if (state.subscription !== 'suspended') sentences.push(...removal(seats, have, inUse, n));
  }
  // Unlimited seats cost nothing: no price to confirm, so no promise of one.
  if (state.subscription === 'suspended') sentences.push(word('seats.suspended'));
  else if (!isUnlimited(seats)) sentences.push(word('seats.confirm'));
  return sentences.join(' ');
}

/**
 * The overview's "Add seats" note: what adding seats means on this customer's plan, with the
 * same sentences as the billing page's note (a plan without seats leaves it to the element).
 */
export function addSeatsNote(state: UsageStoreState, formatOn: Element): string {
  const n = (value: number) => formatNumber(formatOn, value);
  if (state.status === 'idle' || state.status === 'loading' || state.status === 'error') return '';
  const seats = state.usages.find((usage) => usage.ReferenceFeature === FEATURE);
  if (!seats) return withoutSeats(state, n);
  if (state.subscription === 'suspended') return word('seats.suspended');
  const sentences = [word('seats.invite')];
  // Unlimited seats cost nothing, so there is no price to see first: that sentence is left out.
  if (isUnlimited(seats)) return [...sentences, word('seats.unlimited')].join(' ');
  if (seats.QuantityIncluded !== undefined) {
    const have = seats.QuantityCurrent ?? 0;
    const included = seats.QuantityIncluded;
    sentences.push(
      have <= included
        ? ofIncludedSentence(have, included, undefined, n)
        : includedSentence(have, included, n),
    );
  }
  sentences.push(word('seats.price-first'));
  return sentences.join(' ');
}

function withoutSeats(state: UsageStoreState, n: (value: number) => string): string {
  if (state.subscription === 'none' || state.subscription === 'ended') return word('seats.no-plan');
  if (state.subscription === 'pending') {
    const terms = state.pendingFeatures.find((feature) => feature.ReferenceFeature === FEATURE);
    const included = terms?.QuantityIncluded;
    if (included === undefined) return word('seats.pending.other');
    if (included === -1) return word('seats.pending.unlimited');
    return word('seats.pending', { included: n(included) });
  }
  // A plan without seats: the <buy-feature> beside the note already says they are not included
  // (and what to do), so the note adds nothing and stays hidden.
  return '';
}

/** "You have 3 seats, all in use." */
function haveSentence(
  have: number,
  inUse: number | undefined,
  n: (value: number) => string,
): string {
  const count = n(have);
  if (have === 0) return word('seats.have.none');
  if (inUse === undefined) return counted('seats.have', have, { count });
  if (inUse >= have) return counted('seats.have.all-used', have, { count });
  if (inUse === 0) return counted('seats.have.none-used', have, { count });
  return word('seats.have.used', { count, used: n(inUse) });
}

/**
 * The seats the customer has (and how many are in use when the page counts them), then what the
 * plan includes and what one more costs: "You have 2 seats, all in use. Your plan includes 5: 3
 * more cost nothing." Two plain sentences rather than one "2 of the 5 … all in use" knot.
 */
function ofIncludedSentence(
  have: number,
  included: number,
  inUse: number | undefined,
  n: (value: number) => string,
): string {
  if (have === 0) return word('seats.of.none', { included: n(included) });
  const vars = { included: n(included) };
  const plan =
    have === included
      ? word('seats.of.full', vars)
      : counted('seats.of.free', included - have, { ...vars, free: n(included - have) });
  return `${haveSentence(have, inUse, n)} ${plan}`;
}

/** Beyond what the plan includes: what it includes, and the extra seats billed each month. */
function includedSentence(have: number, included: number, n: (value: number) => string): string {
  const vars = { included: n(included) };
  return counted('seats.included.extra', have - included, { ...vars, extra: n(have - included) });
}

/**
 * What can be removed, as `<buy-feature>` allows it: down to those in use when the page counts
 * them, else down to those the plan includes. Removing extra seats lowers the next month.
 */
function removal(
  seats: Usage,
  have: number,
  inUse: number | undefined,
  n: (value: number) => string,
): string[] {
  const included = seats.QuantityIncluded ?? 0;
  const floor = Math.max(0, inUse ?? included);
  const removable = have - floor;
  if (removable <= 0)
    return inUse !== undefined && have > 0 && inUse >= have ? [word('seats.remove.all-used')] : [];
  const vars = { count: n(removable), floor: n(floor) };
  const sentences = [
    word(inUse === undefined ? 'seats.remove.included' : 'seats.remove.in-use', vars),
  ];
  if (have > included) sentences.push(word('seats.remove.refund'));
  return sentences;
}
