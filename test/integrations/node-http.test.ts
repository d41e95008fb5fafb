// examples/node-http: the proxy on plain node:http, the page on the script-tag file.
import { test } from 'node:test';
import { useExample, withServer } from './harness.js';

const run = useExample('node-http');

test('node:http: `node server.js` serves the page and the proxy', () => withServer(run));
