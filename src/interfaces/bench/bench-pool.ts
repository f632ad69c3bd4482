import { Pool } from 'pg';

/**
 * A plain node-postgres pool for the bench's baselines (b) and (c). pg-pool reports a connection
 * that dies while idle in it (PostgreSQL restarted, a proxy cut) as an 'error' event on the pool,
 * and an 'error' event nobody listens to ends the process: the API under `npm run bench` would
 * die of a database blip its own pool survives. pg-pool has already dropped that connection when
 * it reports it, and the next query opens a new one, so there is nothing to do but listen.
 */
export function benchPool(connectionString: string, max: number): Pool {
  const pool = new Pool({ connectionString, max });
  pool.on('error', () => {});
  return pool;
}
