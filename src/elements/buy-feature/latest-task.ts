import type { ReactiveController, ReactiveControllerHost } from 'lit';

export type LatestTaskState<A, R> =
  | { status: 'idle' }
  | { status: 'pending'; args: A }
  | { status: 'complete'; args: A; value: R }
  | { status: 'error'; args: A; error: unknown };

/**
 * Runs an async task for the latest arguments only. A run starts `debounceMs` after the last
 * change (or at once), the run in flight is aborted when the arguments change, and a result
 * that is not for the latest arguments is dropped: what `@lit/task` does, plus a debounce,
 * without the dependency. A live price preview never shows the price of an older quantity.
 */
export class LatestTask<A, R> implements ReactiveController {
  state: LatestTaskState<A, R> = { status: 'idle' };

  readonly #host: ReactiveControllerHost;
  readonly #task: (args: A, signal: AbortSignal) => Promise<R>;
  readonly #debounceMs: number;
  #generation = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #abort: AbortController | undefined;
  #running: Promise<void> | undefined;

  constructor(
    host: ReactiveControllerHost,
    task: (args: A, signal: AbortSignal) => Promise<R>,
    debounceMs = 250,
  ) {
    this.#host = host;
    this.#task = task;
    this.#debounceMs = debounceMs;
    host.addController(this);
  }

  /** Schedules a run for `args`, after the debounce delay unless `immediate`. */
  run(args: A, immediate = false): void {
    this.#cancel();
    this.state = { status: 'pending', args };
    this.#host.requestUpdate();
    const generation = this.#generation;
    if (immediate) this.#start(generation, args);
    else this.#timer = setTimeout(() => this.#start(generation, args), this.#debounceMs);
  }

  /** Drops any scheduled or running run and goes back to idle. */
  reset(): void {
    this.#cancel();
    if (this.state.status !== 'idle') {
      this.state = { status: 'idle' };
      this.#host.requestUpdate();
    }
  }

  /** Replaces the result of the latest run (e.g. with a fresher one learnt elsewhere). */
  set(args: A, value: R): void {
    this.#cancel();
    this.state = { status: 'complete', args, value };
    this.#host.requestUpdate();
  }

  /** Starts a scheduled run now, and resolves with the state once the latest run has settled. */
  async settled(): Promise<LatestTaskState<A, R>> {
    while (this.state.status === 'pending') {
      if (this.#timer !== undefined) {
        clearTimeout(this.#timer);
        this.#timer = undefined;
        this.#start(this.#generation, this.state.args);
      }
      await this.#running;
    }
    return this.state;
  }

  hostDisconnected(): void {
    this.reset();
  }

  #cancel(): void {
    this.#generation += 1;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#abort?.abort();
    this.#abort = undefined;
  }

  #start(generation: number, args: A): void {
    this.#timer = undefined;
    const abort = new AbortController();
    this.#abort = abort;
    const isLatest = () => generation === this.#generation;
    // A task that throws synchronously settles like one that rejects.
    const result = new Promise<R>((resolve) => resolve(this.#task(args, abort.signal)));
    this.#running = result.then(
      (value) => {
        if (isLatest()) this.state = { status: 'complete', args, value };
      },
      (error: unknown) => {
        if (isLatest()) this.state = { status: 'error', args, error };
      },
    );
    void this.#running.then(() => {
      if (!isLatest()) return;
      this.#abort = undefined;
      this.#host.requestUpdate();
    });
  }
}
