import { createServer, Server } from 'node:http';
import { benchPool } from './bench-pool';
import { RAW_BRANDS_SQL, rawBrandList } from './raw-brand-list';

/**
 * Baseline (c) of `npm run bench`, started only with BENCH_BASELINES=true, in the API's process
 * (on its core) but on a port of its own: a bare `node:http` server that runs the brand list's raw
 * query for `?tenant=` and sends the same JSON as (b), with no framework, key, limit or log. It is
 * the floor of what this machine allows for that answer; every scenario's ratio to it says what
 * all the rest costs.
 */
export async function startBareFloor(options: { connectionString: string; poolMax: number; host: string; port: number }): Promise<{ close(): Promise<void> }> {
  const pool = benchPool(options.connectionString, options.poolMax);
  const server: Server = createServer((req, res) => {
    const tenant = new URL(req.url ?? '/', 'http://floor').searchParams.get('tenant') ?? '';
    pool.query<{ id: string; view_json: string }>(RAW_BRANDS_SQL, [tenant]).then(
      ({ rows }) => {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        res.end(rawBrandList(rows));
      },
      () => res.writeHead(503).end(),
    );
  });
  await new Promise<void>((done) => server.listen(options.port, options.host, done));
  return {
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      await pool.end();
    },
  };
}
