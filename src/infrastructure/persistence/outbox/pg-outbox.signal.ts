import { Client } from 'pg';
import { OutboxSignal } from '../../../application/webhook/delivery/outbox-signal.port';
import type { Logger } from '../../../application/shared/logger.port';
import { OUTBOX_CHANNEL } from './outbox.writer';

/**
 * LISTEN on the outbox channel with a dedicated connection (a pooled one would lose it). If the
 * connection drops it reconnects after a second; meanwhile the relay's poll keeps events moving.
 */
export class PgOutboxSignal extends OutboxSignal {
  private client?: Client;
  private closed = false;
  private retry?: NodeJS.Timeout;

  constructor(
    private readonly databaseUrl: string,
    private readonly logger: Logger,
  ) {
    super();
  }

  async listen(onSignal: () => void): Promise<void> {
    if (this.closed) return;
    const client = new Client({ connectionString: this.databaseUrl });
    this.client = client;
    const reconnect = () => {
      if (this.closed || this.client !== client) return;
      this.client = undefined;
      client.end().catch(() => {});
      this.retry = setTimeout(() => void this.listen(onSignal).catch(() => {}), 1000);
    };
    client.on('notification', () => onSignal());
    client.on('error', (error) => {
      this.logger.warn({ err: { message: error.message } }, 'outbox listener lost its connection; polling until it is back');
      reconnect();
    });
    client.on('end', reconnect);
    try {
      await client.connect();
      await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
    } catch (error) {
      this.logger.warn({ err: { message: (error as Error).message } }, 'outbox listener could not connect; polling until it can');
      reconnect();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    await this.client?.end().catch(() => {});
  }
}
