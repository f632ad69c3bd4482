import { Client } from 'pg';
import type { Logger } from '../../../application/shared/logger.port';

/**
 * LISTEN on one channel over a dedicated connection (a pooled one would lose it). If the
 * connection drops it reconnects after a second; `live` says whether notifications can come now,
 * so that a caller can poll meanwhile.
 */
export class PgListener {
  private client?: Client;
  private closed = false;
  private retry?: NodeJS.Timeout;
  private starting?: Promise<void>;
  live = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly channel: string,
    private readonly logger: Logger,
    private readonly onNotification: (payload: string) => void,
  ) {}

  /** Connects and listens once (later calls wait for the first); resolves whether it listens. */
  async start(): Promise<boolean> {
    this.starting ??= this.connect();
    await this.starting;
    return this.live;
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new Client({ connectionString: this.databaseUrl });
    this.client = client;
    const reconnect = () => {
      if (this.closed || this.client !== client) return;
      this.live = false;
      this.client = undefined;
      client.end().catch(() => {});
      this.retry = setTimeout(() => void this.connect().catch(() => {}), 1000);
    };
    client.on('notification', (message) => this.onNotification(message.payload ?? ''));
    client.on('error', (error) => {
      this.logger.warn({ err: { message: error.message }, channel: this.channel }, 'listener lost its connection; polling until it is back');
      reconnect();
    });
    client.on('end', reconnect);
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
      this.live = this.client === client;
    } catch (error) {
      this.logger.warn({ err: { message: (error as Error).message }, channel: this.channel }, 'listener could not connect; polling until it can');
      reconnect();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.live = false;
    clearTimeout(this.retry);
    await this.client?.end().catch(() => {});
  }
}
