import { Injectable } from '@nestjs/common';
import { LoggedEventType } from '../../domain/events/event-catalogue';
import { Clock } from '../../domain/shared/clock.port';
import { EventFeedWaits } from './event-feed-waits.port';
import { EventQueries, FeedSlice } from './event-queries.port';

export interface ReadEventFeedInput {
  tenantId: string;
  type?: LoggedEventType;
  createdAfter?: Date;
  /** The position read up to (0: from the oldest event kept). */
  after: number;
  limit: number;
  /** How long to wait for an event when there is none yet (a long poll); 0 answers at once. */
  waitMs: number;
  /** Aborted when the client goes away: the wait ends and its slot is given back. */
  signal?: AbortSignal;
}

/**
 * The polling consumer's read (decisions.md 142): events past a position, in the order their
 * publications committed. With a wait and nothing to read, it parks until the relay says the
 * tenant's feed moved (in any process), then reads again; at the end of the wait, or when the
 * process stops, it answers what it has, possibly nothing, with the position to resume at.
 */
@Injectable()
export class ReadEventFeed {
  constructor(
    private readonly events: EventQueries,
    private readonly waits: EventFeedWaits,
    private readonly clock: Clock,
  ) {}

  async execute(input: ReadEventFeedInput): Promise<FeedSlice> {
    const read = () => this.events.feed(input.tenantId, { type: input.type, createdAfter: input.createdAfter }, input.after, input.limit);
    if (input.waitMs <= 0) return read();
    // Entered before the first read: an event whose signal comes between the read and the wait still wakes it.
    const wait = await this.waits.enter(input.tenantId);
    try {
      const deadline = this.clock.now().getTime() + input.waitMs;
      for (;;) {
        const slice = await read();
        const left = deadline - this.clock.now().getTime();
        if (slice.items.length > 0 || left <= 0) return slice;
        // A signal for the tenant may be for events this read filters out: wait again until the deadline.
        if (!(await wait.next(left, input.signal))) return read();
      }
    } finally {
      wait.leave();
    }
  }
}
