import { SweepDeliveries } from '../../application/webhook/sweep-deliveries.use-case';
import type { Logger } from '../../application/shared/logger';

/** Re-enqueues stranded deliveries every interval (one sweep at a time). */
export class SweepLoop {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly sweep: SweepDeliveries,
    private readonly logger: Logger,
    private readonly options: { intervalMs: number; batch: number },
  ) {}

  start(): void {
    this.timer = setInterval(() => this.tick(), this.options.intervalMs);
  }

  tick(): Promise<void> {
    this.running ??= this.sweep
      .execute({ limit: this.options.batch })
      .then((count) => {
        if (count > 0) this.logger.info({ deliveries: count }, 're-enqueued stranded deliveries');
      })
      .catch((error: Error) => this.logger.warn({ err: { message: error.message } }, 'delivery sweep failed; retrying next interval'))
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
