import { createPostgresBackend, Queue, Worker, withBackend, type Processor } from 'bullmq';
import IORedis from 'ioredis';
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

  private redis(options: { maxRetriesPerRequest: number | null; enableOfflineQueue?: boolean }): IORedis {
    const connection = new IORedis(this.backend.url, options);
    // Errors are reported by the queue and worker; an unhandled 'error' event would end the process.
    connection.on('error', () => {});
    return connection;
  }
}

async function closeBoth(owner: { close(): Promise<void> }, connection: IORedis): Promise<void> {
  await owner.close().catch(() => {});
  await connection.quit().catch(() => connection.disconnect());
}
