import { createPostgresBackend, Queue, Worker, withBackend, type Processor } from 'bullmq';
import type { RedisOptions } from 'ioredis';
import { connectRedis, RedisConnection } from '../redis/redis-connection';
import type { QueueBackend } from './queue-backend';

/** A BullMQ object with the connection made for it, closed together. */
export interface Disposable<T> {
  value: T;
  dispose(): Promise<void>;
}

/**
 * Makes BullMQ queues and workers on the chosen backend, each on a connection of its own so that
 * a broken one can be replaced alone (BullMQ keeps a failed connection start for good). Producers
 * fail fast while Redis is down (no offline queue: the sweeper re-enqueues from PostgreSQL later);
 * workers wait for it, as BullMQ requires (`maxRetriesPerRequest: null`).
 */
export class BullmqFactory {
  constructor(
    private readonly backend: QueueBackend,
    private readonly prefix: string,
  ) {}

  queue(name: string): Disposable<Queue> {
    if (this.backend.kind === 'postgres') {
      const postgres = withBackend(createPostgresBackend);
      const queue = new postgres.Queue(name, { connection: { connectionString: this.backend.url, migrate: true } }) as unknown as Queue;
      return { value: queue, dispose: () => queue.close() };
    }
    const connection = this.redis({ maxRetriesPerRequest: 1, enableOfflineQueue: false });
    const queue = new Queue(name, { connection, prefix: this.prefix });
    return { value: queue, dispose: () => closeBoth(queue, connection) };
  }

  worker<T>(name: string, processor: Processor<T>, options: { concurrency: number; lockDuration: number }): Disposable<Worker<T>> {
    if (this.backend.kind === 'postgres') {
      const postgres = withBackend(createPostgresBackend);
      const worker = new postgres.Worker<T>(name, processor, {
        connection: { connectionString: this.backend.url, migrate: true },
        concurrency: options.concurrency,
        autorun: false,
      }) as unknown as Worker<T>;
      return { value: worker, dispose: () => worker.close() };
    }
    const connection = this.redis({ maxRetriesPerRequest: null });
    const worker = new Worker<T>(name, processor, {
      connection,
      prefix: this.prefix,
      concurrency: options.concurrency,
      lockDuration: options.lockDuration,
      stalledInterval: Math.max(1000, Math.floor(options.lockDuration / 2)),
      autorun: false,
    });
    return { value: worker, dispose: () => closeBoth(worker, connection) };
  }

  private redis(options: RedisOptions): RedisConnection {
    if (this.backend.kind === 'postgres') throw new Error('no Redis: the queues are in PostgreSQL');
    // Errors are reported by the queue and worker (connectRedis listens, so none ends the process).
    return connectRedis(this.backend, options);
  }
}

/** How long closing a BullMQ object, then its connection's QUIT, may take before the connection is cut. */
const CLOSE_WAIT_MS = 5000;
const QUIT_WAIT_MS = 1000;

/**
 * Closes the BullMQ object, then its connection, each for a bounded time, then cuts the
 * connection. A worker's connection queues commands while a node is away, and a cluster's QUIT
 * and a worker's close (its blocking read) wait on every node: with a node gone for good (a master
 * killed and replaced by its replica) either would wait for ever.
 */
async function closeBoth(owner: { close(): Promise<void> }, connection: RedisConnection): Promise<void> {
  await bounded(owner.close(), CLOSE_WAIT_MS);
  await bounded(connection.quit(), QUIT_WAIT_MS);
  connection.disconnect();
}

/** Waits for `work` (its failure ignored) at most `ms`. */
async function bounded(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work.catch(() => {}), new Promise<void>((done) => (timer = setTimeout(done, ms)))]);
  clearTimeout(timer);
}
