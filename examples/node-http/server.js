import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { toNodeHandler } from 'billing-elements/server';
import { billing } from './billing.js';

const billingRoutes = toNodeHandler(billing);
// The script-tag file and, beside it, its French texts (loaded when a page shows French),
// served from the installed package.
const scriptFiles = new Map(
  ['/billing-elements.js', '/billing-elements.fr.js'].map((path) => [
    path,
    new URL(import.meta.resolve(`billing-elements${path}`)),
  ]),
);

const server = createServer(async (request, response) => {
  // The proxy answers under /billing and hands every other request to the app.
  billingRoutes(request, response, async () => {
    const scriptFile = scriptFiles.get(request.url ?? '');
    if (scriptFile) {
      response.setHeader('content-type', 'text/javascript; charset=utf-8');
      response.end(await readFile(scriptFile));
    } else if (request.url === '/') {
      response.setHeader('content-type', 'text/html; charset=utf-8');
      response.end(await readFile(new URL('./index.html', import.meta.url)));
    } else {
      response.statusCode = 404;
      response.end('Not found');
    }
  });
});

const port = Number(process.env.PORT ?? 3000);
server.listen(port, '127.0.0.1', () => console.log(`http://127.0.0.1:${port}`));
