// The reference process of bench/events.bench.ts: the least a Node process can do to hold event
// streams (node:http, a header and a first line written, nothing checked), for the memory
// figure's context. It answers the same stdin protocol as events-proxy.mjs.
import { createServer } from 'node:http';

const streams = new Set();
const server = createServer((request, response) => {
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  response.write('retry: 3000\n:\n\n');
  streams.add(response);
  request.on('close', () => streams.delete(response));
});

process.stdin.on('data', () => {
  globalThis.gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  process.stdout.write(`${JSON.stringify({ rss, heapUsed })}\n`);
});
process.stdin.on('end', () => process.exit(0));
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
