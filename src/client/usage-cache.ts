// The usage store's session cache: the usages of each proxy, kept for the browser tab's session
// (session.ts: sessionStorage, else the page's memory) so that a reload or another page of the
// app shows them without asking the proxy again.
import type { Usage } from '../contract/resources.js';
import { getSessionValue, removeSessionValue, setSessionValue } from './session.js';
import type { Account } from './usage-store.js';

const STORAGE_PREFIX = 'billing-elements:usages:';

/** What is saved of one proxy's usages. */
export interface SavedUsages {
  usages: Usage[];
  /** When they were fetched (ms since epoch). */
  at: number;
  /** Absent from what an older version saved: then nothing is known beyond the usages. */
  account?: Account;
  /** The language of the usages' texts; absent: not known. */
  language?: string;
  /** The customer they are of (see ProxyClient.customer); absent: not known. */
  customer?: string;
}

/** The usages saved for this tab's session, if any readable ones. */
export function savedUsages(endpoint: string): SavedUsages | null {
  try {
    const saved = JSON.parse(getSessionValue(STORAGE_PREFIX + endpoint) ?? '{}') as {
      usages?: unknown;
      at?: unknown;
    };
    // Returned as read: the store copies the usages and reads nothing else.
    if (Array.isArray(saved.usages) && typeof saved.at === 'number') return saved as SavedUsages;
  } catch {
    // An unreadable entry: as if nothing were saved.
  }
  return null;
}

/** Saves a proxy's usages for the tab's session, in place of what was saved. */
export function saveUsages(endpoint: string, saved: SavedUsages): void {
  setSessionValue(STORAGE_PREFIX + endpoint, JSON.stringify(saved));
}

/** Forgets the usages saved for a proxy (sign-out, a session that ended). */
export function forgetSavedUsages(endpoint: string): void {
  removeSessionValue(STORAGE_PREFIX + endpoint);
}
