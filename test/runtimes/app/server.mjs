// The proxy on a server of the runtime that runs this file: Node (node:http), Bun (Bun.serve)
// or Deno (Deno.serve). Prints one JSON line when it listens: its URL and the runtime.
/* global Bun, Deno */
import { createServer } from 'node:http';
import { createBillingProxy, toNodeHandler } from 'billing-elements/server';
import { billingOptions } from './billing.mjs';

const proxy = createBillingProxy(billingOptions(process.env));
const announce = (url, runtime) => console.log(JSON.stringify({ url, runtime }));

if (globalThis.Bun) {
  // idleTimeout 0: an event stream stays open between its heartbeats.
  const server = Bun.serve({ hostname: '127.0.0.1', port: 0, idleTimeout: 0, fetch: proxy.fetch });
  announce(`http://127.0.0.1:${server.port}`, `bun ${Bun.version}`);
} else if (globalThis.Deno) {
  Deno.serve(
    {
      hostname: '127.0.0.1',
      port: 0,
      onListen: ({ port }) => announce(`http://127.0.0.1:${port}`, `deno ${Deno.version.deno}`),
    },
    proxy.fetch,
  );
} else {
  const server = createServer(toNodeHandler(proxy));
  server.listen(0, '127.0.0.1', () =>
    announce(`http://127.0.0.1:${server.address().port}`, `node ${process.versions.node}`),
  );
}
