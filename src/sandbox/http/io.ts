import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './errors.js';

/** What a handler answers; the server writes it (after any fault the control API injected). */
export interface Reply {
  status: number;
  json?: unknown;
  body?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

export const json = (status: number, value: unknown, headers?: Record<string, string>): Reply => ({
  status,
  json: value,
  ...(headers ? { headers } : {}),
});

export const htmlReply = (status: number, body: string): Reply => ({
  status,
  body,
  contentType: 'text/html; charset=utf-8',
});

const MAX_BODY_BYTES = 1_000_000;

const bodies = new WeakMap<IncomingMessage, Promise<string>>();

/**
 * The request body, read once. The server reads it before any injected delay, as a real service
 * has the whole request before it applies it, even when the client gives up meanwhile.
 */
export function readBody(req: IncomingMessage): Promise<string> {
  let body = bodies.get(req);
  if (!body) {
    body = readStream(req);
    bodies.set(req, body);
  }
  return body;
}

async function readStream(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY_BYTES) {
      throw new ApiError(
        413,
        'Error.Api.Request.Malformed',
        `The body exceeds ${MAX_BODY_BYTES} bytes.`,
      );
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Parses a JSON body; an empty body is `{}` only when `allowEmpty`. */
export async function readJson(req: IncomingMessage, allowEmpty = false): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  const text = await readBody(req);
  if (text.trim() === '') {
    if (allowEmpty) return {};
    throw new ApiError(400, 'Error.Api.Request.Malformed', 'The request needs a JSON body.');
  }
  if (type && !type.includes('json')) {
    throw new ApiError(400, 'Error.Api.Request.Malformed', `Expected a JSON body, got '${type}'.`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ApiError(
      400,
      'Error.Api.Request.Malformed',
      `The body is not valid JSON: ${(error as Error).message}`,
    );
  }
}

export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new URLSearchParams(await readBody(req));
}

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

export function send(res: ServerResponse, reply: Reply): void {
  const body = reply.json !== undefined ? JSON.stringify(reply.json) : (reply.body ?? '');
  const contentType =
    reply.json !== undefined
      ? 'application/json; charset=utf-8'
      : (reply.contentType ?? 'text/plain; charset=utf-8');
  res.writeHead(reply.status, {
    ...SECURITY_HEADERS,
    'content-type': contentType,
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    ...reply.headers,
  });
  res.end(body);
}
