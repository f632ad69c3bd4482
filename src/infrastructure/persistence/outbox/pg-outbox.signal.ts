import { OutboxSignal } from '../../../application/webhook/relay/outbox-signal.port';
import type { Logger } from '../../../application/shared/logger.port';
import { PgListener } from '../connection/pg-listener';
import { OUTBOX_CHANNEL } from './outbox.writer';
import { isTypeId } from '../../../domain/shared/type-id';

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

  async listen(onSignal: (from: string | null) => void): Promise<void> {
    if (this.closed) return;
    // The payload is the lowest event id of the commits told of (relay-wake.ts), or '' when unknown.
    // Back after a loss, it may have missed commits: the relay looks at once rather than at its poll.
    this.listener = new PgListener(
      this.databaseUrl,
      OUTBOX_CHANNEL,
      this.logger,
      (payload) => onSignal(isTypeId(payload, 'evt') ? payload : null),
      (live) => live && onSignal(null),
    );
    await this.listener.start();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.listener?.close();
  }
}
