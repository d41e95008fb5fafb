// Waiting in tests, for Node and the browser alike. Wait for a condition (`until`, an event, a
// locator); `sleep` is for the few tests where time itself is the subject (proving that nothing
// happens during a window, letting a lease or a cache expire), each saying why at its call.

/**
 * Resolves once every promise job queued so far has run (the next turn of the event loop): a
 * barrier for code that settles through a chain of promises nothing else can be awaited on,
 * not a wait for time.
 */
export const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Resolves after `ms` milliseconds: only where time itself is the subject, each call saying why
 * (a window in which nothing may happen).
 */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Resolves with the first truthy answer of `check` (polled), or rejects after `timeoutMs`
 * naming `what` and the last error `check` threw. The default timeout is generous: it costs
 * nothing when the condition comes early, and a loaded machine can be slow.
 */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  what: string,
  timeoutMs = 15_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const answer = await check();
      if (answer) return answer as NonNullable<T>;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`Timed out waiting for ${what}${last ? ` (last: ${String(last)})` : ''}`);
    // The poll interval: nothing to wait on but the condition itself.
    await sleep(20);
  }
}
