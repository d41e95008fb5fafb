// A real redis-server for the tests that need one (REDIS_SERVER or redis-server on PATH),
// started on a free loopback port and stopped by its pid.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export interface RedisStartOptions {
  /** The port (a restart reuses its predecessor's); default a free one. */
  port?: number;
  /**
   * A directory for an append-only file written with `appendfsync always` (every acknowledged
   * write is on disk, so a restart, even after SIGKILL, loses none of them); default none.
   */
  appendOnlyDir?: string;
}

/** A real redis-server of our own (REDIS_SERVER or redis-server on PATH), stopped by pid. */
export async function startRedis(
  options: RedisStartOptions = {},
): Promise<{ port: number; process: ChildProcess }> {
  const port = options.port ?? (await freePort());
  const persistence =
    options.appendOnlyDir === undefined
      ? ['--appendonly', 'no']
      : ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', options.appendOnlyDir];
  const child = spawn(
    process.env.REDIS_SERVER ?? 'redis-server',
    ['--bind', '127.0.0.1', '--port', String(port), '--save', '', ...persistence],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`redis-server did not start: ${output}`)),
      5000,
    );
    child.stdout?.on('data', () => {
      if (/Ready to accept connections/i.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
  await ready;
  return { port, process: child };
}
