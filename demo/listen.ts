import type { Server } from 'node:http';

// Listening and closing for the demo's own HTTP server (Vite runs in middleware mode on it).

/** Listens on `port`, or (unless strict) on the next free one of the ten after it. */
export async function listen(
  server: Server,
  host: string,
  port: number,
  strict: boolean,
): Promise<number> {
  const attempts = strict || port === 0 ? 1 : 10;
  for (let attempt = 0; ; attempt += 1) {
    try {
      await new Promise<void>((resolve, reject) => {
        const onError = (error: Error) => reject(error);
        server.once('error', onError);
        server.listen(port + attempt, host, () => {
          server.off('error', onError);
          resolve();
        });
      });
      const address = server.address();
      if (!address || typeof address === 'string')
        throw new Error('The demo server is not listening');
      return address.port;
    } catch (error) {
      const busy = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
      if (!busy || attempt + 1 >= attempts) throw error;
    }
  }
}

export function closeHttp(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    // Keep-alive connections of the browser would hold close() open.
    server.closeAllConnections();
  });
}
