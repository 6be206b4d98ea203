import http from 'node:http';
import type { Logger } from 'pino';
import { renderMetrics } from './metrics.ts';

/**
 * A worker or ingest process of a split set-up has no web port: with METRICS_PORT set, each
 * process serves its own /metrics there (bound to METRICS_HOST, loopback unless told otherwise),
 * so that Prometheus scrapes every process's counters.
 */
export async function startMetricsListener(
  port: number,
  host: string,
  log: Logger,
): Promise<() => Promise<void>> {
  const server = http.createServer((request, response) => {
    if (request.method !== 'GET' || request.url !== '/metrics') {
      response.writeHead(404).end();
      return;
    }
    renderMetrics().then(
      ({ contentType, text }) => response.writeHead(200, { 'content-type': contentType }).end(text),
      (err: Error) => {
        log.error({ err }, 'metrics failed');
        response.writeHead(500).end();
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
