export const FAULT_MODES = [
  'delay',
  'delay-after-apply',
  'drop-before-apply',
  'drop-after-apply',
  'status-500',
  'html-after-apply',
  'empty-after-apply',
] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

export interface Fault {
  route: string;
  mode: FaultMode;
  delayMs: number;
  /** Requests still to be hit. */
  remaining: number;
}

/**
 * Faults injected on API routes, consumed in the order they were added. `*-after-apply` modes
 * run the handler to completion (the change is applied and counted) before delaying or dropping
 * the answer: that is what a proxy's reconcile path has to cope with. `html-after-apply` and
 * `empty-after-apply` run the handler too, then answer its status with an HTML error page or an
 * empty body instead of its JSON (a gateway in between, a truncated answer): a success whose
 * body cannot be read.
 */
export class Faults {
  #faults: Fault[] = [];

  add(fault: Fault): void {
    this.#faults.push({ ...fault });
  }

  clear(): void {
    this.#faults = [];
  }

  list(): Fault[] {
    return this.#faults.map((f) => ({ ...f }));
  }

  /** The fault to apply to this request, consuming one of its `times`. */
  take(route: string): Fault | null {
    const index = this.#faults.findIndex((f) => f.route === route);
    if (index < 0) return null;
    const fault = this.#faults[index] as Fault;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.#faults.splice(index, 1);
    return { ...fault };
  }
}
