// The site, at http://localhost:4102: plain HTML pages, no build (a site builder's pages).
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';

const pages = { '/': 'script-tag.html', '/modules': 'modules.html' };

createServer(async (request, response) => {
  const page = pages[new URL(request.url, 'http://site').pathname];
  if (!page) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  response.end(await readFile(new URL(`./site/${page}`, import.meta.url)));
}).listen(4102, 'localhost');
