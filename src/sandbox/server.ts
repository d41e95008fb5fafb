import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { registerCatalogRoutes } from './api/catalog.js';
import { registerCustomerRoutes } from './api/customers.js';
import { registerInvoiceRoutes } from './api/invoices.js';
import { registerPaymentSettingsRoutes } from './api/payment-settings.js';
import { registerSubscriptionRoutes } from './api/subscriptions.js';
import { registerUsageRoutes } from './api/usage.js';
import { catchUp } from './billing/rules.js';
import type { SandboxContext } from './context.js';
import { registerControlRoutes } from './control/control-api.js';
import { registerWebhookRoutes } from './control/webhooks-api.js';
import { registerHostedRoutes } from './hosted/routes.js';
import { checkBasicAuth } from './http/auth.js';
import { ApiError, ValidationError } from './http/errors.js';
import { json, readBody, send, type Reply } from './http/io.js';
import { Router, type RequestContext } from './http/router.js';
import { registerPortalRoutes } from './portal/routes.js';

export interface SandboxRouters {
  api: Router;
  control: Router;
  open: Router;
  apiRouteKeys: string[];
}

/** Builds the three routers: the authenticated API, the authenticated control API, and the open pages. */
export function buildRouters(ctx: SandboxContext): SandboxRouters {
  const api = new Router();
  registerCustomerRoutes(api, ctx);
  registerPaymentSettingsRoutes(api, ctx);
  registerSubscriptionRoutes(api, ctx);
  registerInvoiceRoutes(api, ctx);
  registerUsageRoutes(api, ctx);
  registerCatalogRoutes(api, ctx);
  const apiRouteKeys = api.keys();
  const control = new Router();
  registerControlRoutes(control, ctx, () => apiRouteKeys);
  registerWebhookRoutes(control, ctx);
  const open = new Router();
  registerHostedRoutes(open, ctx);
  registerPortalRoutes(open, ctx);
  return { api, control, open, apiRouteKeys };
}

function errorReply(error: unknown): Reply {
  if (error instanceof ValidationError) return json(422, error.errors);
  // 422 is always an array of errors, one per invalid field, as the live service answers it.
  if (error instanceof ApiError && error.status === 422) return json(422, [error.toBody()]);
  if (error instanceof ApiError) {
    const headers: Record<string, string> =
      error.status === 401
        ? { 'www-authenticate': 'Basic realm="billing-sandbox", charset="UTF-8"' }
        : {};
    return json(error.status, error.toBody(), headers);
  }
  return json(500, { Code: 'Error.Api.Internal', Message: 'Unexpected error in the sandbox.' });
}

function parseUrl(req: IncomingMessage): URL | null {
  try {
    return new URL(req.url ?? '/', 'http://sandbox.local');
  } catch {
    return null;
  }
}

export function createSandboxServer(ctx: SandboxContext, routers: SandboxRouters): Server {
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = req.method ?? 'GET';
    const url = parseUrl(req);
    if (!url)
      return send(
        res,
        json(400, { Code: 'Error.Api.Request.Malformed', Message: 'Malformed URL.' }),
      );
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      return send(
        res,
        json(400, { Code: 'Error.Api.Request.Malformed', Message: 'Malformed URL encoding.' }),
      );
    }
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    const lower = path.toLowerCase();
    const isApi = lower === '/v1' || lower.startsWith('/v1/');
    const isControl = lower === '/_sandbox' || lower.startsWith('/_sandbox/');
    const router = isApi ? routers.api : isControl ? routers.control : routers.open;

    const found = router.match(method, path);
    const route =
      found && 'route' in found
        ? found.route.key
        : `${method} ${isApi ? '(unknown /v1 route)' : path}`;
    if (isApi) {
      ctx.stats.request(route);
      ctx.stats.inFlight += 1;
      // 'close' comes once the answer is sent or the connection is gone, whichever is first.
      res.once('close', () => (ctx.stats.inFlight -= 1));
    }

    if (method !== 'GET' && method !== 'HEAD') {
      try {
        await readBody(req);
      } catch (error) {
        // A client that went away gets no answer; a body too large gets its error.
        if (error instanceof ApiError) return send(res, errorReply(error));
        return void res.destroy();
      }
    }

    // The service's clock, as a real service's Date header gives it: a client that times
    // something against the service's periods (the end of a billing period) reads it from here.
    // Stamped again just before the answer, after any delay.
    const stampDate = () => res.setHeader('date', new Date(ctx.store.clock.nowMs()).toUTCString());
    stampDate();

    // Injected faults apply to API routes only, before anything else (even authentication).
    const fault = isApi && found && 'route' in found ? ctx.faults.take(route) : null;
    if (fault) {
      ctx.stats.faultsTriggered += 1;
      if (fault.mode === 'drop-before-apply') return void res.socket?.destroy();
      if (fault.mode === 'status-500') {
        return send(
          res,
          json(500, { Code: 'Error.Api.Internal', Message: 'Injected fault (status-500).' }),
        );
      }
      if (fault.mode === 'delay') await sleep(fault.delayMs);
    }

    let reply: Reply;
    try {
      if (isApi || isControl) {
        checkBasicAuth(req, ctx.catalog.business.agentKey, ctx.catalog.business.apiKey);
      }
      catchUp(ctx.store);
      if (!found) {
        throw new ApiError(404, 'Error.Api.NotFound', `No route for ${method} ${path}.`);
      }
      if ('allowed' in found) {
        reply = json(
          405,
          { Code: 'Error.Api.MethodNotAllowed', Message: `${method} is not allowed on ${path}.` },
          { allow: found.allowed.join(', ') },
        );
      } else {
        const request: RequestContext = {
          req,
          res,
          method,
          path,
          query: url.searchParams,
          params: found.params,
          route,
        };
        reply = await found.route.handler(request);
      }
    } catch (error) {
      reply = errorReply(error);
      if (reply.status === 500) console.error('[sandbox] unexpected error', error);
    }

    if (fault?.mode === 'drop-after-apply') return void res.socket?.destroy();
    if (fault?.mode === 'delay-after-apply') await sleep(fault.delayMs);
    if (res.destroyed) return;
    stampDate();
    if (fault?.mode === 'html-after-apply') {
      const html = '<!doctype html><title>Bad gateway</title><h1>Something went wrong</h1>';
      return send(res, {
        status: reply.status,
        body: html,
        contentType: 'text/html; charset=utf-8',
      });
    }
    if (fault?.mode === 'empty-after-apply') {
      return send(res, { status: reply.status, body: '' });
    }
    send(res, method === 'HEAD' ? { ...reply, json: undefined, body: '' } : reply);
  };

  const server = createServer({ keepAliveTimeout: 30_000 }, (req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error('[sandbox] failed to answer', error);
      if (!res.headersSent) send(res, errorReply(error));
      else res.destroy();
    });
  });
  return server;
}
