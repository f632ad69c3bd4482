import { createServer, Server } from 'node:http';
import type { Registry } from 'prom-client';

/**
 * GET /metrics on its own port (127.0.0.1 by default), off the public API port: scrapers reach it,
 * customers do not.
 */
export async function startMetricsServer(registry: Registry, host: string, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((done) => server.listen(port, host, done));
  return server;
}
