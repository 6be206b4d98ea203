import http from 'node:http';

/**
 * What the HTTP port answers while start-up waits for the database (db/kysely.ts
 * waitForDatabase): 503 DatabaseUnavailable to every request, so that a load balancer's health
 * probe and a browser see why instead of a refused connection. Closed before the app listens.
 */
export async function answerDatabaseUnavailable(
  port: number,
  host: string,
): Promise<{ close(): Promise<void> }> {
  const body = JSON.stringify({ error: 'DatabaseUnavailable', message: 'database unavailable' });
  const server = http.createServer((_request, response) => {
    response.writeHead(503, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'retry-after': '5',
      connection: 'close',
    });
    response.end(body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
