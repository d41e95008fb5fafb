// Types of scripts/prereqs.mjs for the TypeScript tests that launch a browser or Redis.

/** Path of a Chrome or Chromium: CHROME_PATH, then the usual install paths, else Debian's chromium. */
export function findChrome(): string;
/** Path of redis-server: REDIS_SERVER, then the usual paths, else Debian's redis-server. */
export function findRedisServer(): string;
/** Flags Chromium needs here: root, no GPU, closed network. */
export const CHROME_FLAGS: readonly string[];
