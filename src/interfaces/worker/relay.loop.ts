import { trace } from '@opentelemetry/api';
import { RelayOutbox } from '../../application/webhook/relay/relay-outbox.use-case';
import { lowestFrom, OutboxSignal } from '../../application/webhook/relay/outbox-signal.port';
import type { Logger } from '../../application/shared/logger.port';

/**
 * Runs the outbox relay when events are committed (LISTEN/NOTIFY) and on a poll as a fallback.
 * One drain at a time per process; a signal during a drain makes it go round once more. Batches
 * follow each other until the outbox is empty.
 *
 * Where the relay reads the outbox from: a signal names the lowest event id its commits wrote,
 * and a round reads from the lowest named since the last (the next batch from where its round
 * ended); the poll, a signal that names none, and the first round read it all. Read from the
 * start every time, the outbox's index of unpublished events made each round step over every
 * event published since the database's oldest snapshot: while an autovacuum ANALYZE held one,
 * 20–40 ms a round after a drain, and the event feed's consumers waited on the relay.
 */
export class RelayLoop {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;
  /** Where the next round reads from: an event id, null for the whole outbox, undefined before any signal. */
  private from: string | null | undefined = null;

  constructor(
    private readonly relay: RelayOutbox,
    private readonly signal: OutboxSignal,
    private readonly logger: Logger,
    private readonly options: { pollMs: number; batch: number; lanes?: number },
  ) {}

  async start(): Promise<void> {
    await this.signal.listen((from) => this.trigger(from));
    this.timer = setInterval(() => this.trigger(null), this.options.pollMs);
    this.trigger(null);
  }

  /** Asks for a round reading from `from` (an event id), or the whole outbox (null). */
  trigger(from: string | null = null): void {
    if (this.stopped) return;
    this.from = lowestFrom(from, this.from);
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
      const from = this.from ?? null;
      this.from = undefined;
      await this.backlog(from);
    } while (this.again && !this.stopped);
  }

  /**
   * Rounds until the outbox has nothing more, in up to `lanes` at once. A lane whose round says
   * there is more starts the next lane beside it: rounds of a backlog overlap as those of two
   * relay processes do (each claims with SKIP LOCKED, takes its page turns under their locks, and
   * its feed positions under the relays' turn), so one round's writes and commit, and its jobs'
   * enqueue, need not wait for the one before. One lane is the default (WEBHOOK_RELAY_LANES): two
   * drained an unordered backlog a little faster, and ordered deliveries and a Redis Cluster
   * slower (decisions.md 149).
   */
  private async backlog(from: string | null): Promise<void> {
    const lanes: Promise<void>[] = [];
    const lane = async (start: string | null): Promise<void> => {
      let from = start;
      try {
        for (;;) {
          const startTime = new Date();
          const result = await this.relay.execute({ limit: this.options.batch, from });
          if (result.events > 0 || result.deliveries > 0) traceRound(startTime, result);
          if (!result.enqueued) this.logger.warn({ deliveries: result.deliveries }, 'queue unavailable: deliveries wait for the sweeper');
          if (!result.more) return;
          // The next batch from where this one ended, or lower when a wake-up or the poll asked
          // meanwhile: a backlog that never empties must not keep the poll's full read away.
          from = lowestFrom(result.through ?? from, this.from);
          this.from = undefined;
          if (lanes.length < (this.options.lanes ?? 1)) lanes.push(lane(from));
        }
      } catch (error) {
        // The next round reads everything: this one's events may be unpublished below any floor.
        this.from = null;
        this.logger.warn({ err: { message: (error as Error).message } }, 'outbox relay failed; retrying on the next signal');
      }
    };
    lanes.push(lane(from));
    for (let i = 0; i < lanes.length; i++) await lanes[i];
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
