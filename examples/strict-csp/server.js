// A page under a strict Content-Security-Policy with Trusted Types required: what each feature
// of the elements needs is listed below (docs/no-code.md, "Content Security Policy").
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toNodeHandler } from 'billing-elements/server';
import { billing } from './billing.js';

/** The billing service's origin: its portal script, its hosted pages and their API calls. */
const service = new URL(process.env.BILLING_PORTAL_SCRIPT_URL).origin;

const csp = [
  "default-src 'none'",
  // The elements' modules (this origin) and the service's portal script.
  `script-src 'self' ${service}`,
  // The proxy (this origin; its event stream too) and the portal script's calls to the service.
  `connect-src 'self' ${service}`,
  // The embedded portal: the service's hosted pages in an iframe.
  `frame-src ${service}`,
  "style-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'self'",
  // Trusted Types: Lit's templates ("lit-html") and the portal script's address
  // ("billing-elements"), each through its own named policy; no default policy.
  "require-trusted-types-for 'script'",
  'trusted-types lit-html billing-elements',
].join('; ');

const billingRoutes = toNodeHandler(billing);
const dist = fileURLToPath(new URL('./node_modules/billing-elements/dist/', import.meta.url));

const server = createServer((request, response) => {
  billingRoutes(request, response, async () => {
    const path = normalize(new URL(request.url, 'http://app').pathname);
    if (path === '/') {
      response.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': csp,
      });
      response.end(await readFile(new URL('./index.html', import.meta.url)));
    } else if (/^\/billing-elements\/cdn\/[\w./-]+\.js$/.test(path) && !path.includes('..')) {
      try {
        const code = await readFile(join(dist, path.slice('/billing-elements/'.length)));
        response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
        response.end(code);
      } catch {
        response.writeHead(404).end();
      }
    } else {
      response.writeHead(404).end();
    }
  });
});

const port = Number(process.env.PORT ?? 3000);
server.listen(port, '127.0.0.1', () => console.log(`http://127.0.0.1:${port}`));
