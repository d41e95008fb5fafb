// examples/hono: the proxy as a Hono route on @hono/node-server, the page on the per-element modules.
import { test } from 'node:test';
import { useExample, withServer } from './harness.js';

const run = useExample('hono');

test('Hono on Node: `node server.js` serves the page and the proxy', () => withServer(run));
