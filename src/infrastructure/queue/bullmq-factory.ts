import { createPostgresBackend, Queue, Worker, withBackend, type Processor } from 'bullmq';
import IORedis from 'ioredis';
import type { QueueBackend } from './queue-backend';

/**
 * Makes BullMQ queues and workers on the chosen backend. Producers fail fast while Redis is down
 * (no offline queue: the sweeper re-enqueues from PostgreSQL later); workers wait for it as
 * BullMQ requires (`maxRetriesPerRequest: null`).
 */
export class BullmqFactory {
  private readonly connections: IORedis[] = [];

  constructor(
    private readonly backend: QueueBackend,
    private readonly prefix: string,
  ) {}

  queue(name: string): Queue {
    if (this.backend.kind === 'postgres') {
      const postgres = withBackend(createPostgresBackend);
      return new postgres.Queue(name, { connection: { connectionString: this.backend.url, migrate: true } }) as unknown as Queue;
    }
    const connection = this.redis({ maxRetriesPerRequest: 1, enableOfflineQueue: false });
    return new Queue(name, { connection, prefix: this.prefix });
  }

  worker<T>(name: string, processor: Processor<T>, options: { concurrency: number; lockDuration: number }): Worker<T> {
    if (this.backend.kind === 'postgres') {
      const postgres = withBackend(createPostgresBackend);
      return new postgres.Worker<T>(name, processor, {
        connection: { connectionString: this.backend.url, migrate: true },
        concurrency: options.concurrency,
        autorun: false,
      }) as unknown as Worker<T>;
    }
    const connection = this.redis({ maxRetriesPerRequest: null });
    return new Worker<T>(name, processor, {
      connection,
      prefix: this.prefix,
      concurrency: options.concurrency,
      lockDuration: options.lockDuration,
      stalledInterval: Math.max(1000, Math.floor(options.lockDuration / 2)),
      autorun: false,
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.connections.map((c) => c.quit().catch(() => c.disconnect())));
  }

  private redis(options: { maxRetriesPerRequest: number | null; enableOfflineQueue?: boolean }): IORedis {
    const connection = new IORedis(this.backend.url, { ...options, lazyConnect: false });
    // Errors are reported by the queue and worker; an unhandled 'error' event would end the process.
    connection.on('error', () => {});
    this.connections.push(connection);
    return connection;
  }
}
