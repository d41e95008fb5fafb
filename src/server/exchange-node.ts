import type * as Http from 'node:http';
import type * as Https from 'node:https';
import { ExchangeTimeoutError, type Exchange } from './exchange.js';

// The upstream call on Node itself, through node:http on a keep-alive Agent: per call, it costs
// a fraction of the CPU of Node's global fetch (which builds web streams, a Request, a Response
// and their headers for every call). Nothing here is imported: the modules come from
// `process.getBuiltinModule` (Node 20.16+) when the runtime is Node, so that a bundle for
// another runtime (a Worker) carries no Node import, and Bun, Deno and Workers, whose Node
// compatibility layers answer to the same names, keep their own fetch.

interface NodeModules {
  http: typeof Http;
  https: typeof Https;
}

/** node:http and node:https when the runtime is Node itself; undefined anywhere else. */
function nodeModules(): NodeModules | undefined {
  const host = globalThis as {
    process?: {
      versions?: Record<string, string | undefined>;
      getBuiltinModule?: (id: string) => unknown;
    };
    navigator?: { userAgent?: unknown };
  };
  const versions = host.process?.versions;
  if (versions?.node === undefined || versions.bun !== undefined || versions.deno !== undefined)
    return undefined;
  // Node 21+ names itself in navigator.userAgent; Node 20 has no navigator; a Worker with Node
  // compatibility says "Cloudflare-Workers".
  const agent = host.navigator?.userAgent;
  if (typeof agent === 'string' && !agent.startsWith('Node.js/')) return undefined;
  const load = host.process?.getBuiltinModule;
  if (typeof load !== 'function') return undefined;
  try {
    const http = load('node:http') as typeof Http | undefined;
    const https = load('node:https') as typeof Https | undefined;
    return typeof http?.request === 'function' && typeof https?.request === 'function'
      ? { http, https }
      : undefined;
  } catch {
    return undefined;
  }
}

/** Reads a body as fetch's `text()` does: UTF-8, a leading byte order mark dropped. */
const utf8 = new TextDecoder();

/**
 * One call through node:http (or node:https), its answer read whole. Redirects are never
 * followed by node:http (a 3xx is an answer, which the caller refuses). The time limit covers
 * the whole call, the answer's body included: it destroys the request, which frees its socket.
 * Undefined when the runtime is not Node.
 */
export function nodeHttpExchange(): Exchange | undefined {
  const modules = nodeModules();
  if (modules === undefined) return undefined;
  const agents = {
    http: new modules.http.Agent({ keepAlive: true, keepAliveMsecs: 30_000, scheduling: 'lifo' }),
    https: new modules.https.Agent({ keepAlive: true, keepAliveMsecs: 30_000, scheduling: 'lifo' }),
  };
  // Calls go to one origin (baseUrl): its parts are read once, not per call.
  let lastOrigin = '';
  let target = { secure: false, host: '', hostname: '', port: '' };
  return ({ url, method, headers, body, timeoutMs }) =>
    new Promise((resolve, reject) => {
      const originEnd = url.indexOf('/', url.indexOf('//') + 2);
      const origin = originEnd < 0 ? url : url.slice(0, originEnd);
      if (origin !== lastOrigin) {
        const parsed = new URL(origin);
        lastOrigin = origin;
        target = {
          secure: parsed.protocol === 'https:',
          host: parsed.host,
          // node:http wants an IPv6 address without its brackets.
          hostname: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
          port: parsed.port,
        };
      }
      const { secure } = target;
      let settled = false;
      const fail = (error: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(error);
      };
      const outgoing = (secure ? modules.https : modules.http).request(
        {
          hostname: target.hostname,
          port: target.port === '' ? undefined : target.port,
          path: originEnd < 0 ? '/' : url.slice(originEnd),
          method,
          // A flat list (Host included): node:http sends it as it is, without a header map per call.
          headers: flatHeaders(target.host, headers, body),
          agent: secure ? agents.https : agents.http,
        },
        (answer) => {
          const chunks: Uint8Array[] = [];
          answer.on('data', (chunk: Uint8Array) => chunks.push(chunk));
          answer.on('error', fail);
          // 'close' without a complete message: the answer was cut short of its length.
          answer.on('close', () => {
            if (!answer.complete) fail(new Error('the answer ended before its whole body'));
          });
          answer.on('end', () => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            const date = answer.headers.date;
            resolve({
              status: answer.statusCode ?? 0,
              text: utf8.decode(chunks.length === 1 ? chunks[0] : concat(chunks)),
              date: typeof date === 'string' ? date : null,
            });
          });
        },
      );
      const timer = setTimeout(() => {
        const error = new ExchangeTimeoutError(timeoutMs);
        fail(error);
        outgoing.destroy(error);
      }, timeoutMs);
      outgoing.on('error', fail);
      outgoing.end(body ?? undefined);
    });
}

const encoder = new TextEncoder();

function flatHeaders(host: string, headers: Record<string, string>, body: string | null): string[] {
  const flat: string[] = ['host', host];
  for (const name in headers) flat.push(name, headers[name] as string);
  if (body !== null) flat.push('content-length', String(utf8Length(body)));
  return flat;
}

function utf8Length(text: string): number {
  // ASCII bodies (the usual JSON) are as long in bytes as in characters.
  for (let index = 0; index < text.length; index++)
    if (text.charCodeAt(index) > 0x7f) return encoder.encode(text).byteLength;
  return text.length;
}

function concat(chunks: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const chunk of chunks) length += chunk.byteLength;
  const whole = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    whole.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return whole;
}
