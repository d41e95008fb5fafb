import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { responseWithText } from './raw-body.js';

/**
 * The default upstream transport on Node: a `fetch` subset (what the upstream client uses:
 * method, string headers, string body, signal) over node:http with keep-alive sockets. On this
 * machine it costs about half of undici's `fetch` per call, which is most of the proxy's own
 * overhead; any runtime without node:http keeps using the global `fetch`.
 */
export function createNodeTransport(): typeof fetch {
  const agents = {
    'http:': new HttpAgent({ keepAlive: true, maxSockets: 256, scheduling: 'lifo' }),
    'https:': new HttpsAgent({ keepAlive: true, maxSockets: 256, scheduling: 'lifo' }),
  };

  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url =
        input instanceof URL
          ? input
          : new URL(input instanceof Request ? input.url : String(input));
      const secure = url.protocol === 'https:';
      if (!secure && url.protocol !== 'http:') {
        reject(new TypeError(`Unsupported protocol ${url.protocol}`));
        return;
      }
      const signal = init.signal ?? undefined;
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const body = init.body ?? null;
      if (body !== null && typeof body !== 'string') {
        reject(new TypeError('The node transport sends string bodies only'));
        return;
      }
      const headers: Record<string, string> = {};
      if (
        init.headers === undefined ||
        (typeof init.headers === 'object' &&
          !(init.headers instanceof Headers) &&
          !Array.isArray(init.headers))
      ) {
        Object.assign(headers, init.headers);
      } else {
        new Headers(init.headers).forEach((value, name) => (headers[name] = value));
      }
      if (body !== null) headers['content-length'] = String(Buffer.byteLength(body));

      const outgoing = (secure ? httpsRequest : httpRequest)(
        url,
        { method: init.method ?? 'GET', headers, agent: agents[secure ? 'https:' : 'http:'] },
        (incoming: IncomingMessage) => {
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
            signal?.removeEventListener('abort', onAbort);
            const responseHeaders = new Headers();
            for (let index = 0; index < incoming.rawHeaders.length; index += 2) {
              responseHeaders.append(
                incoming.rawHeaders[index] ?? '',
                incoming.rawHeaders[index + 1] ?? '',
              );
            }
            const status = incoming.statusCode ?? 502;
            const noBody = status === 204 || status === 304 || init.method === 'HEAD';
            const responseInit = { status, headers: responseHeaders };
            resolve(
              noBody
                ? new Response(null, responseInit)
                : responseWithText(Buffer.concat(chunks).toString('utf8'), responseInit),
            );
          });
        },
      );
      let settled = false;
      function fail(error: unknown) {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        outgoing.destroy();
        reject(error instanceof Error ? error : new TypeError(String(error)));
      }
      function onAbort() {
        fail(signal?.reason ?? new DOMException('The operation was aborted', 'AbortError'));
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      outgoing.on('error', (error) => fail(new TypeError('fetch failed', { cause: error })));
      outgoing.end(body ?? undefined);
    });
}
