/**
 * The sandbox's own clock. Every date the sandbox computes (periods, proration, invoice dates)
 * comes from here, so tests that move it stay consistent. A clock created with a fixed start is
 * frozen (deterministic tests); otherwise it follows real time from its start. Either way it can
 * be moved forward or set through the control API.
 */
export interface ClockState {
  /** Sandbox time, in ms since the epoch, at `realAtBase`. */
  baseMs: number;
  /** Real time when `baseMs` was taken, or null for a frozen clock. */
  realAtBase: number | null;
}

export class Clock {
  #state: ClockState;

  constructor(state: ClockState) {
    this.#state = { ...state };
  }

  static frozenAt(ms: number): Clock {
    return new Clock({ baseMs: ms, realAtBase: null });
  }

  static running(): Clock {
    const now = Date.now();
    return new Clock({ baseMs: now, realAtBase: now });
  }

  get frozen(): boolean {
    return this.#state.realAtBase === null;
  }

  nowMs(): number {
    const { baseMs, realAtBase } = this.#state;
    return realAtBase === null ? baseMs : baseMs + (Date.now() - realAtBase);
  }

  nowIso(): string {
    return new Date(this.nowMs()).toISOString();
  }

  set(ms: number): void {
    this.#state = { baseMs: ms, realAtBase: this.frozen ? null : Date.now() };
  }

  advance(ms: number): void {
    this.set(this.nowMs() + ms);
  }

  snapshot(): ClockState {
    return { baseMs: this.nowMs(), realAtBase: this.frozen ? null : Date.now() };
  }
}

export const DAY_MS = 86_400_000;

/** Adds calendar months in UTC, clamping the day (Jan 31 + 1 month = Feb 28/29). */
export function addMonthsUtc(ms: number, months: number): number {
  const date = new Date(ms);
  const day = date.getUTCDate();
  const target = new Date(ms);
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const lastDay = new Date(
    Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0),
  ).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target.getTime();
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
