import type { ReactiveController, ReactiveControllerHost } from 'lit';

export type LatestTaskState<Args, Result> =
  | { status: 'idle' }
  | { status: 'pending'; args: Args }
  | { status: 'complete'; args: Args; value: Result }
  | { status: 'error'; args: Args; error: unknown };

/**
 * Runs an async task for the latest arguments only. A run starts `debounceMs` after the last
 * change (or at once), the run in flight is aborted when the arguments change, and a result
 * that is not for the latest arguments is dropped: what `@lit/task` does, plus a debounce,
 * without the dependency. A live price preview never shows the price of an older quantity.
 */
export class LatestTask<Args, Result> implements ReactiveController {
  state: LatestTaskState<Args, Result> = { status: 'idle' };

  readonly #host: ReactiveControllerHost;
  readonly #task: (args: Args, signal: AbortSignal) => Promise<Result>;
  readonly #debounceMs: number;
  /** The latest run's: aborted by any change, so a run whose controller is not this one is stale. */
  #abort = new AbortController();
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Starts the scheduled run now; unset once it started or was dropped. */
  #start: (() => void) | undefined;
  #running: Promise<void> | undefined;

  constructor(
    host: ReactiveControllerHost,
    task: (args: Args, signal: AbortSignal) => Promise<Result>,
    debounceMs = 250,
  ) {
    this.#host = host;
    this.#task = task;
    this.#debounceMs = debounceMs;
    host.addController(this);
  }

  /**
   * Schedules a run for `args`, after the debounce delay unless `immediate`. With `keepShown`,
   * a result already shown for the same `args` stays until the new one replaces it (a refresh
   * that must not flash a placeholder).
   */
  run(args: Args, immediate = false, { keepShown = false } = {}): void {
    // A run for the same arguments already under way answers the refresh too.
    if (keepShown && this.state.status === 'pending' && this.state.args === args) return;
    const refreshing = keepShown && this.state.status === 'complete' && this.state.args === args;
    const abort = refreshing ? this.#restart() : this.#show({ status: 'pending', args });
    const start = () => {
      this.#start = undefined;
      clearTimeout(this.#timer);
      // A task that throws synchronously settles like one that rejects.
      this.#running = new Promise<Result>((resolve) => resolve(this.#task(args, abort.signal)))
        .then(
          (value): LatestTaskState<Args, Result> => ({ status: 'complete', args, value }),
          (error: unknown): LatestTaskState<Args, Result> => ({ status: 'error', args, error }),
        )
        .then((state) => {
          if (abort !== this.#abort) return;
          this.state = state;
          this.#host.requestUpdate();
        });
    };
    this.#start = start;
    if (immediate) start();
    else this.#timer = setTimeout(start, this.#debounceMs);
  }

  /** Drops any scheduled or running run and goes back to idle. */
  reset(): void {
    this.#show({ status: 'idle' });
  }

  /** Replaces the result of the latest run (e.g. with a fresher one learnt elsewhere). */
  set(args: Args, value: Result): void {
    this.#show({ status: 'complete', args, value });
  }

  /** Starts a scheduled run now, and resolves with the state once the latest run has settled. */
  async settled(): Promise<LatestTaskState<Args, Result>> {
    while (this.state.status === 'pending') {
      this.#start?.();
      await this.#running;
    }
    return this.state;
  }

  /**
   * Out of the document: the scheduled or running run is dropped; a settled result stays (an
   * element moved in the page shows it until it runs again), a pending one goes back to idle.
   */
  hostDisconnected(): void {
    if (this.state.status === 'pending') this.reset();
    else this.#restart();
  }

  /** Drops the scheduled or running run and shows `state`; answers the next run's controller. */
  #show(state: LatestTaskState<Args, Result>): AbortController {
    const abort = this.#restart();
    this.state = state;
    this.#host.requestUpdate();
    return abort;
  }

  /** Drops the scheduled or running run, keeping what is shown; answers the next run's controller. */
  #restart(): AbortController {
    clearTimeout(this.#timer);
    this.#start = undefined;
    this.#abort.abort();
    this.#abort = new AbortController();
    return this.#abort;
  }
}
