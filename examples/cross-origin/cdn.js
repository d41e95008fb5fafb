// A CDN-like static server, at http://127.0.0.1:4101, for the package's browser files.
// Module scripts (cdn/*.js and the chunks they import) are fetched in CORS mode when the page
// is on another origin: they need Access-Control-Allow-Origin. The files are public, so `*`.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('./node_modules/billing-elements/dist/', import.meta.url));
const served = /^\/(billing-elements\.js|cdn\/[\w./-]+\.js|chunks\/[\w./-]+\.js)$/;

createServer(async (request, response) => {
  const path = normalize(new URL(request.url, 'http://cdn').pathname);
  if (!served.test(path) || path.includes('..')) {
    response.writeHead(404).end();
    return;
  }
  try {
    const code = await readFile(join(dist, path));
    response.writeHead(200, {
      'content-type': extname(path) === '.js' ? 'text/javascript; charset=utf-8' : 'text/plain',
      'access-control-allow-origin': '*',
      'cache-control': 'public, max-age=3600',
    });
    response.end(code);
  } catch {
    response.writeHead(404).end();
  }
}).listen(4101, '127.0.0.1');
