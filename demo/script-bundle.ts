import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { build, type Rolldown } from 'vite';

// The script-tag file (dist/billing-elements.js) for the plain pages, built in memory from the
// sources with the package's own build configuration (vite.config.ts, mode `script-tag`), so
// `npm start` needs no prior build and the page always runs the code being edited.

export interface ScriptBundle {
  /** Serves GET /billing-elements.js. */
  serve(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Forgets the built file: the next request rebuilds it. */
  invalidate(): void;
  /** Starts a build now, so the first page does not wait for it. */
  warm(): void;
}

async function buildScriptTag(root: string): Promise<string> {
  const result = await build({
    root,
    configFile: join(root, 'vite.config.ts'),
    mode: 'script-tag',
    logLevel: 'warn',
    build: { write: false, emptyOutDir: false },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  for (const output of outputs) {
    for (const file of output.output) {
      if (file.type === 'chunk' && file.fileName === 'billing-elements.js') return file.code;
    }
  }
  throw new Error('The script-tag build produced no billing-elements.js');
}

export function createScriptBundle(root: string): ScriptBundle {
  let current: Promise<string> | null = null;
  const get = (): Promise<string> => {
    if (!current) {
      const attempt = buildScriptTag(root);
      current = attempt;
      // A failed build is retried by the next request rather than cached.
      attempt.catch(() => {
        if (current === attempt) current = null;
      });
    }
    return current;
  };
  return {
    async serve(req, res) {
      let code: string;
      try {
        code = await get();
      } catch (error) {
        res.statusCode = 500;
        res.setHeader('content-type', 'text/javascript; charset=utf-8');
        const reason = error instanceof Error ? error.message : String(error);
        res.end(
          `console.error(${JSON.stringify(`billing-elements.js failed to build: ${reason}`)});\n`,
        );
        return;
      }
      res.statusCode = 200;
      res.setHeader('content-type', 'text/javascript; charset=utf-8');
      res.setHeader('cache-control', 'no-cache');
      res.end(req.method === 'HEAD' ? undefined : code);
    },
    invalidate() {
      current = null;
    },
    warm() {
      get().catch(() => {
        // Reported when a page asks for the file.
      });
    },
  };
}
