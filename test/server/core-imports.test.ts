// The proxy's core runs on every runtime: nothing in src/server but the Node adapters imports
// Node, undici or @hono/node-server (type-only imports vanish from the JavaScript), and the
// Worker entry offers every export of the main entry except those adapters.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as main from '../../src/server/index.js';
import * as worker from '../../src/server/worker.js';

const server = fileURLToPath(new URL('../../src/server', import.meta.url));
/** The Node adapters: the only modules that may import Node. */
const NODE_ADAPTERS = ['adapters/node.ts', 'adapters/express.ts', 'adapters/vite.ts', 'index.ts'];
const NODE_EXPORTS = ['toNodeHandler', 'toExpressMiddleware', 'billingProxyVitePlugin'];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('the proxy core', () => {
  it('imports nothing Node-only outside the Node adapters', () => {
    const offending: string[] = [];
    for (const file of sources(server)) {
      const name = relative(server, file);
      if (NODE_ADAPTERS.includes(name)) continue;
      const code = readFileSync(file, 'utf8');
      // Value imports and re-exports (not `import type`), and dynamic imports.
      const pattern =
        /(?:^(?:import|export)\s+(?!type\b)[^;]*?from\s+|import\()\s*'(node:[^']+|undici[^']*|@hono\/node-server[^']*)'/gm;
      for (const match of code.matchAll(pattern)) offending.push(`${name}: ${match[1]}`);
    }
    assert.deepEqual(offending, []);
  });

  it('is exported whole by the Worker entry, without the Node adapters', () => {
    const expected = Object.keys(main)
      .filter((name) => !NODE_EXPORTS.includes(name))
      .sort();
    const offered = Object.keys(worker)
      .filter((name) => name !== 'toWorkerHandler')
      .sort();
    const missing = expected.filter((name) => !offered.includes(name));
    assert.deepEqual(missing, [], 'core exports missing from billing-elements/server/worker');
    for (const name of NODE_EXPORTS)
      assert.ok(!(name in worker), `${name} is not in the Worker entry`);
  });
});
