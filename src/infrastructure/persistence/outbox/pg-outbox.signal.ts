import { OutboxSignal } from '../../../application/webhook/delivery/outbox-signal.port';
import type { Logger } from '../../../application/shared/logger.port';
import { PgListener } from '../connection/pg-listener';
import { OUTBOX_CHANNEL } from './outbox.writer';

/** LISTEN on the outbox channel (PgListener); while the connection is away, the relay's poll keeps events moving. */
export class PgOutboxSignal extends OutboxSignal {
  private listener?: PgListener;
  private closed = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly logger: Logger,
  ) {
    super();
  }

  async listen(onSignal: () => void): Promise<void> {
    if (this.closed) return;
    this.listener = new PgListener(this.databaseUrl, OUTBOX_CHANNEL, this.logger, () => onSignal());
    await this.listener.start();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.listener?.close();
  }
}
