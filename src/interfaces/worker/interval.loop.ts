import type { Logger } from '../../application/shared/logger.port';

/**
 * Runs one piece of upkeep every interval, one run at a time (a run still going when the next is
 * due makes that one wait its turn, not overlap). A failure is logged and tried again next time.
 * The sweeper and retention run this way.
 */
export class IntervalLoop {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly name: string,
    private readonly run: () => Promise<Record<string, number> | null>,
    private readonly logger: Logger,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.intervalMs);
  }

  tick(): Promise<void> {
    this.running ??= this.run()
      .then((done) => {
        // A run that did something says what; an idle one says nothing.
        if (done) this.logger.info(done, this.name);
      })
      .catch((error: Error) => this.logger.warn({ err: { message: error.message } }, `${this.name} failed; retrying next interval`))
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
