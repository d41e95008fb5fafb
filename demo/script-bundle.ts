import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { build, type Rolldown } from 'vite';

// The browser files of the package's no-build installs, built in memory from the sources with
// its own build configuration (vite.config.ts), so `npm start` needs no prior build and the
// pages always run the code being edited: the script-tag file (/billing-elements.js, mode
// `script-tag`) and its French texts beside it (/billing-elements.fr.js, mode
// `script-tag-texts`), and the autoloader and per-element modules (/cdn/..., mode `modules`),
// as dist/ lays them out.

export interface ScriptBundle {
  /** Serves GET /billing-elements[.fr].js and GET /cdn/<file>; false when there is no such file. */
  serve(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean>;
  /** Forgets the built file: the next request rebuilds it. */
  invalidate(): void;
  /** Starts a build now, so the first page does not wait for it. */
  warm(): void;
}

/** The JavaScript files of one build mode, by their path under `prefix`. */
async function buildFiles(
  root: string,
  mode: string,
  prefix: string,
): Promise<Map<string, string>> {
  const result = await build({
    root,
    configFile: join(root, 'vite.config.ts'),
    mode,
    logLevel: 'warn',
    build: { write: false, emptyOutDir: false },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const files = new Map<string, string>();
  for (const output of outputs) {
    for (const file of output.output)
      if (file.type === 'chunk') files.set(`${prefix}${file.fileName}`, file.code);
  }
  return files;
}

/** Both builds' files by URL path: /billing-elements.js and /cdn/... */
async function buildScripts(root: string): Promise<Map<string, string>> {
  const [scriptTag, scriptTagTexts, modules] = await Promise.all([
    buildFiles(root, 'script-tag', '/'),
    buildFiles(root, 'script-tag-texts', '/'),
    buildFiles(root, 'modules', '/cdn/'),
  ]);
  if (!scriptTag.has('/billing-elements.js'))
    throw new Error('The script-tag build produced no billing-elements.js');
  return new Map([...scriptTag, ...scriptTagTexts, ...modules]);
}

export function createScriptBundle(root: string): ScriptBundle {
  let current: Promise<Map<string, string>> | null = null;
  const get = (): Promise<Map<string, string>> => {
    if (!current) {
      const attempt = buildScripts(root);
      current = attempt;
      // A failed build is retried by the next request rather than cached.
      attempt.catch(() => {
        if (current === attempt) current = null;
      });
    }
    return current;
  };
  return {
    async serve(req, res, path) {
      if (!/^\/billing-elements(\.[a-z]{2})?\.js$/.test(path) && !path.startsWith('/cdn/'))
        return false;
      let code: string | undefined;
      try {
        code = (await get()).get(path);
      } catch (error) {
        res.statusCode = 500;
        res.setHeader('content-type', 'text/javascript; charset=utf-8');
        const reason = error instanceof Error ? error.message : String(error);
        res.end(`console.error(${JSON.stringify(`${path} failed to build: ${reason}`)});\n`);
        return true;
      }
      if (code === undefined) return false;
      res.statusCode = 200;
      res.setHeader('content-type', 'text/javascript; charset=utf-8');
      res.setHeader('cache-control', 'no-cache');
      // A module script from another origin (a snippet pasted in another site) is fetched in
      // CORS mode: without this header the browser refuses to run it. Public code, no cookies.
      res.setHeader('access-control-allow-origin', '*');
      res.end(req.method === 'HEAD' ? undefined : code);
      return true;
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
