import { readFile, rename, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { SandboxStateSchema } from './schema.js';
import type { SandboxState } from './types.js';

/** What the state file holds: the state and the token key, so links survive a restart. */
export interface PersistedFile {
  format: 'billing-elements-sandbox-state';
  /** Fingerprint of the fixtures the state was built from; another fixture starts afresh. */
  fixturesHash: string;
  tokenKey: string;
  state: SandboxState;
}

export async function loadStateFile(
  path: string,
  fixturesHash: string,
): Promise<PersistedFile | null> {
  if (!existsSync(path)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new Error(`Cannot read the sandbox state file ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const file = parsed as Partial<PersistedFile>;
  if (
    file.format !== 'billing-elements-sandbox-state' ||
    !file.state ||
    typeof file.tokenKey !== 'string'
  ) {
    throw new Error(`${path} is not a sandbox state file; move it away or pick another stateFile.`);
  }
  if (file.fixturesHash !== fixturesHash) return null;
  const checked = SandboxStateSchema.safeParse(file.state);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const where = ['state', ...(issue?.path ?? [])].join('.');
    throw new Error(
      `${path} holds a damaged sandbox state (${where}: ${issue?.message ?? 'invalid'}); ` +
        'move it away or pick another stateFile.',
    );
  }
  return { ...(file as PersistedFile), state: checked.data };
}

/**
 * Writes the state after changes, coalescing bursts: at most one write in flight, and one more
 * queued when changes happen meanwhile. Each write goes to a temporary file that is then renamed
 * over the target, so a crash never leaves a half-written file.
 */
export class StateWriter {
  #dirty = false;
  #running: Promise<void> | null = null;
  #counter = 0;

  readonly #path: string;
  readonly #snapshot: () => PersistedFile;

  constructor(path: string, snapshot: () => PersistedFile) {
    this.#path = path;
    this.#snapshot = snapshot;
  }

  schedule(): void {
    this.#dirty = true;
    if (!this.#running) this.#running = this.#loop();
  }

  async flush(): Promise<void> {
    while (this.#running) await this.#running;
  }

  async #loop(): Promise<void> {
    try {
      while (this.#dirty) {
        this.#dirty = false;
        // Let a burst of synchronous changes settle into one write.
        await new Promise((resolve) => setImmediate(resolve));
        const tmp = `${this.#path}.${process.pid}.${++this.#counter}.tmp`;
        await writeFile(tmp, JSON.stringify(this.#snapshot()), 'utf8');
        await rename(tmp, this.#path);
      }
    } catch (error) {
      console.error(`[sandbox] could not write the state file ${this.#path}:`, error);
    } finally {
      this.#running = null;
    }
  }
}
