import { Agent as HttpAgent, request as httpRequest, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { timeoutError, type Transport } from './transport.js';

/**
 * The default upstream transport on Node: node:http(s) with keep-alive sockets, the answer read
 * whole into a string. No Request, Response, Headers, web stream or AbortSignal is made per call:
 * on Node 20 each of those costs more than the rest of a small call's handling (a Response with
 * a body builds a transferable ReadableStream, about 40 µs; a signal about 14 µs). The timeout is
 * a timer that destroys the request.
 */
export function createNodeTransport(baseUrl: string): Transport {
  const base = new URL(baseUrl);
  const secure = base.protocol === 'https:';
  if (!secure && base.protocol !== 'http:')
    throw new TypeError(`Unsupported protocol ${base.protocol}`);
  const send = secure ? httpsRequest : httpRequest;
  const target: RequestOptions = {
    protocol: base.protocol,
    hostname: base.hostname.replace(/^\[|\]$/g, ''),
    port: base.port === '' ? undefined : Number(base.port),
    agent: secure
      ? new HttpsAgent({ keepAlive: true, maxSockets: 256, scheduling: 'lifo' })
      : new HttpAgent({ keepAlive: true, maxSockets: 256, scheduling: 'lifo' }),
  };
  // Calls go to `baseUrl + path`, as with fetch: a base URL may carry a path (or even a query).
  const prefix = base.pathname.replace(/\/+$/, '') + base.search;
  if (base.username !== '' || base.password !== '')
    target.auth = `${decodeURIComponent(base.username)}:${decodeURIComponent(base.password)}`;

  return (call) =>
    new Promise((resolve, reject) => {
      // Copies and literals, no object spread (which costs microseconds per call on Node 20).
      const headers = Object.assign({}, call.headers);
      if (call.body !== null) headers['content-length'] = String(Buffer.byteLength(call.body));
      let settled = false;
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        outgoing.destroy();
        reject(error);
      };
      const outgoing = send(
        {
          protocol: target.protocol,
          hostname: target.hostname,
          port: target.port,
          auth: target.auth,
          agent: target.agent,
          method: call.method,
          path: prefix + call.path,
          headers,
        },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('error', fail);
          incoming.on('aborted', () =>
            fail(new TypeError('The connection dropped during the answer')),
          );
          incoming.on('end', () => {
            if (!incoming.complete) {
              fail(new TypeError('The connection dropped during the answer'));
              return;
            }
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            resolve({
              date: incoming.headers.date,
              status: incoming.statusCode ?? 502,
              text:
                chunks.length === 1
                  ? (chunks[0] as Buffer).toString('utf8')
                  : Buffer.concat(chunks).toString('utf8'),
            });
          });
        },
      );
      const timer = setTimeout(() => fail(timeoutError(call)), call.timeoutMs);
      outgoing.on('error', (error) =>
        fail(new TypeError(`The connection failed: ${error.message}`, { cause: error })),
      );
      outgoing.end(call.body ?? undefined);
    });
}
