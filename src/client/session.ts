// Values kept for the browser tab's session (the usage store's cache, the pending purchases).
// They live in sessionStorage, or in this page's memory where storage is missing or refuses
// (server rendering, sandboxed frames, some privacy modes, a full quota).

/** What storage refused to keep. */
const memory = new Map<string, string>();

/** The value kept under `key`, or null when there is none. */
export function getSessionValue(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return memory.get(key) ?? null;
  }
}

/** Keeps `value` under `key` for the tab's session. */
export function setSessionValue(key: string, value: string): void {
  try {
    sessionStorage.setItem(key, value);
  } catch {
    memory.set(key, value);
  }
}

/** Forgets the value under `key` (nothing happens when there is none). */
export function removeSessionValue(key: string): void {
  try {
    sessionStorage.removeItem(key);
  } catch {
    memory.delete(key);
  }
}
