import { trace } from '@opentelemetry/api';
import { RelayOutbox } from '../../application/webhook/delivery/relay-outbox.use-case';
import { OutboxSignal } from '../../application/webhook/delivery/outbox-signal.port';
import type { Logger } from '../../application/shared/logger.port';

/**
 * Runs the outbox relay when events are committed (LISTEN/NOTIFY) and on a poll as a fallback.
 * One drain at a time per process; a signal during a drain makes it go round once more. Batches
 * follow each other until the outbox is empty.
 */
export class RelayLoop {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;

  constructor(
    private readonly relay: RelayOutbox,
    private readonly signal: OutboxSignal,
    private readonly logger: Logger,
    private readonly options: { pollMs: number; batch: number },
  ) {}

  async start(): Promise<void> {
    await this.signal.listen(() => this.trigger());
    this.timer = setInterval(() => this.trigger(), this.options.pollMs);
    this.trigger();
  }

  trigger(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = undefined;
    });
  }

  /** Resolves when the relay has nothing more to do right now (for tests and shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.signal.close();
    await this.idle();
  }

  private async drain(): Promise<void> {
    do {
      this.again = false;
      try {
        for (;;) {
          const startTime = new Date();
          const result = await this.relay.execute({ limit: this.options.batch });
          if (result.events > 0 || result.deliveries > 0) traceRound(startTime, result);
          if (!result.enqueued) this.logger.warn({ deliveries: result.deliveries }, 'queue unavailable: deliveries wait for the sweeper');
          if (!result.more) break;
        }
      } catch (error) {
        this.logger.warn({ err: { message: (error as Error).message } }, 'outbox relay failed; retrying on the next signal');
      }
    } while (this.again && !this.stopped);
  }
}

/**
 * A span for a round that moved something, written once it is over: rounds that find nothing
 * (every poll) would otherwise fill traces with empty spans. The round's statements are not its
 * children (they start no trace of their own): its time and counts are what it tells.
 */
function traceRound(startTime: Date, result: { events: number; deliveries: number; enqueued: boolean }): void {
  trace
    .getTracer('landing-customer-api.webhooks')
    .startSpan('outbox relay round', {
      startTime,
      attributes: { 'outbox.events': result.events, 'outbox.deliveries': result.deliveries, 'outbox.enqueued': result.enqueued },
    })
    .end();
}
