import type { Pool, PoolClient } from 'pg';

/**
 * Gives a pool its slot back when a checked-out connection dies.
 *
 * Kysely (under MikroORM) releases a transaction's connection only after its COMMIT or ROLLBACK
 * succeeds. When the connection is cut inside a transaction neither can, so the dead client stayed
 * checked out of pg-pool for ever: one slot fewer per database blip until requests waited on an
 * empty pool, and closing the pool waited on it for ever. Here every checked-out client that ends
 * is released with an error (pg-pool then discards it), and `release` becomes idempotent so the
 * holder's own later release, when it comes, is harmless. Upstream: kysely-org/kysely#1990 (open);
 * once a release of Kysely frees the connection itself, this can go.
 */
export function releaseDeadCheckouts(pool: Pool): void {
  const connect = pool.connect.bind(pool) as (cb: ConnectCallback) => void;
  const guarded = (cb: ConnectCallback) =>
    connect((err, client, done) => {
      if (err || !client) return cb(err, client, done);
      guard(client);
      cb(undefined, client, client.release);
    });
  // pg-pool's promise form is its callback form underneath; both are replaced so every caller
  // (Kysely awaits the promise, pool.query uses the callback) gets a guarded client.
  pool.connect = ((cb?: ConnectCallback) => {
    if (cb) return guarded(cb);
    return new Promise<PoolClient>((resolve, reject) => guarded((err, client) => (err || !client ? reject(err) : resolve(client))));
  }) as Pool['connect'];
}

type ConnectCallback = (err: Error | undefined, client: PoolClient | undefined, done: (release?: Error | boolean) => void) => void;

function guard(client: PoolClient): void {
  const release = client.release.bind(client);
  let released = false;
  // Deferred one turn: a holder whose query failed with the connection releases it itself first.
  const onEnd = () => setImmediate(() => client.release(new Error('connection ended while checked out')));
  client.once('end', onEnd);
  client.release = (err?: Error | boolean) => {
    if (released) return;
    released = true;
    client.removeListener('end', onEnd);
    release(err);
  };
}
