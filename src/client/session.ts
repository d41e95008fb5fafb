const memory = new Map<string, string | null>();

/**
 * A value kept for the browser tab's session: read it (no `value`), write it, or remove it
 * (`null`). It lives in sessionStorage, or in this page's memory where storage is missing or
 * refuses (server rendering, sandboxed frames, some privacy modes, a full quota).
 */
export function sessionValue(key: string, value?: string | null): string | null {
  try {
    if (value === undefined) return sessionStorage.getItem(key);
    if (value === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, value);
  } catch {
    // A removal is kept as null: read back, it is null as well.
    if (value !== undefined) memory.set(key, value);
    return memory.get(key) ?? null;
  }
  return null;
}
