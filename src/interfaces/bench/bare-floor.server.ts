import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { benchPool } from './bench-pool';
import { RAW_BRANDS_SQL, rawBrandList } from './raw-brand-list';

export const BENCH_FLOOR_HOST = '127.0.0.1';

/**
 * Baseline (c) of `npm run bench`, started only with BENCH_BASELINES=true, in the API's process
 * (on its core) but on a port of its own: a bare `node:http` server that runs the brand list's raw
 * query for `?tenant=` and sends the same JSON as (b), with no framework, key, limit or log. It is
 * the floor of what this machine allows for that answer; every scenario's ratio to it says what
 * all the rest costs.
 */
export async function startBareFloor(options: { connectionString: string; poolMax: number; port: number }): Promise<{ address: AddressInfo; close(): Promise<void> }> {
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
  // Loopback only, whatever HOST says: it lists any tenant's brands without a key. The process
  // refuses BENCH_BASELINES under NODE_ENV=production (app-config.ts).
  await new Promise<void>((done) => server.listen(options.port, BENCH_FLOOR_HOST, done));
  return {
    address: server.address() as AddressInfo,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      await pool.end();
    },
  };
}
