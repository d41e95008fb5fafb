import { serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { toHonoHandler } from 'billing-elements/server';
import { billing } from './billing.js';

const app = new Hono();

app.all('/billing/*', toHonoHandler(billing));
// The elements' modules, from the installed package: one per element in cdn/, and the chunks
// they share, loaded by relative paths.
app.use(
  '/billing-elements/*',
  serveStatic({
    root: './node_modules/billing-elements/dist',
    rewriteRequestPath: (path) => path.replace(/^\/billing-elements/, ''),
  }),
);
app.get('/', serveStatic({ path: './index.html' }));

const port = Number(process.env.PORT ?? 3000);
serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, (info) =>
  console.log(`http://127.0.0.1:${info.port}`),
);
