import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Reply } from './io.js';

export interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  /** Decoded path without the trailing slash. */
  path: string;
  query: URLSearchParams;
  params: Record<string, string>;
  /** The route key, e.g. `POST /v1/Usage`, as used by faults and stats. */
  route: string;
}

export type Handler = (ctx: RequestContext) => Promise<Reply> | Reply;

interface Route {
  method: string;
  key: string;
  segments: string[];
  handler: Handler;
}

/**
 * A tiny router. Patterns use `{name}` placeholders (`/v1/Subscription/{id}/Upgrade`); matching
 * is case-insensitive because the seed itself writes `/v1/customer` and `/v1/Customer`.
 */
export class Router {
  readonly #routes: Route[] = [];

  add(method: string, pattern: string, handler: Handler): this {
    this.#routes.push({
      method,
      key: `${method} ${pattern}`,
      segments: pattern.split('/').filter(Boolean),
      handler,
    });
    return this;
  }

  keys(): string[] {
    return this.#routes.map((r) => r.key);
  }

  match(
    method: string,
    path: string,
  ): { route: Route; params: Record<string, string> } | { allowed: string[] } | null {
    const parts = path.split('/').filter(Boolean);
    const allowed: string[] = [];
    for (const route of this.#routes) {
      const params = matchSegments(route.segments, parts);
      if (!params) continue;
      if (route.method === method || (method === 'HEAD' && route.method === 'GET'))
        return { route, params };
      allowed.push(route.method);
    }
    return allowed.length > 0 ? { allowed } : null;
  }
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | null {
  if (pattern.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i] as string;
    const v = parts[i] as string;
    if (p.startsWith('{') && p.endsWith('}')) {
      try {
        params[p.slice(1, -1)] = decodeURIComponent(v);
      } catch {
        return null;
      }
    } else if (p.toLowerCase() !== v.toLowerCase()) {
      return null;
    }
  }
  return params;
}
