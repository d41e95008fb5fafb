export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface PollOptions {
  /** How long to keep trying, from the first try. */
  timeoutMs: number;
  /** The wait after the first unsettled try; it doubles after each one. */
  firstWaitMs: number;
  /** The longest wait between two tries. */
  maxWaitMs: number;
}

/**
 * Tries `attempt` until it settles (returns anything but undefined), waiting between tries with
 * a doubling backoff. Undefined when the next wait would pass the time allowed.
 */
export async function poll<T>(
  attempt: () => Promise<T | undefined>,
  { timeoutMs, firstWaitMs, maxWaitMs }: PollOptions,
): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  let waitMs = firstWaitMs;
  for (;;) {
    const settled = await attempt();
    if (settled !== undefined) return settled;
    if (Date.now() + waitMs > deadline) return undefined;
    await sleep(waitMs);
    waitMs = Math.min(waitMs * 2, maxWaitMs);
  }
}
