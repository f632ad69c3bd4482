import type { Client } from 'openapi-fetch';
import type { components, paths } from './schema.js';

export type FeedEvent = components['schemas']['EventResponse'];
type EventKind = NonNullable<NonNullable<paths['/v0/events']['get']['parameters']['query']>['type']>;

export interface FollowEventsOptions {
  /** Where to resume: a `nextCursor` saved earlier (by `onCursor`); absent, the oldest event kept. */
  cursor?: string;
  /** Seconds each read waits for events when none is there yet, 0 to 30 (default 30: a long poll). */
  wait?: number;
  type?: EventKind;
  limit?: number;
  /** Ends the iteration, the read in flight included. */
  signal?: AbortSignal;
  /**
   * Called with the cursor after each page's events were yielded (and so handled): save it, and
   * resume from it. A consumer that saves it only after handling the events never skips one, and
   * after a crash sees at most the last page again.
   */
  onCursor?: (cursor: string) => void | Promise<void>;
}

/** A read of the feed that failed for another reason than the pace (429 is waited out). */
export class FeedReadError extends Error {
  // Plain fields, not parameter properties: the client runs under Node's type stripping.
  readonly status: number;
  readonly body: unknown;

  constructor(status: number, body: unknown) {
    super(`GET /v0/events?order=asc answered ${status}`);
    this.status = status;
    this.body = body;
  }
}

/**
 * Every event of the tenant's feed, in order, from `cursor` on, for as long as the caller iterates:
 * follows `nextCursor` with long polls (docs/webhooks.md, Polling instead of webhooks).
 *
 *   for await (const event of followEvents(client, { cursor: saved, onCursor: save })) handle(event);
 */
export async function* followEvents(client: Client<paths>, options: FollowEventsOptions = {}): AsyncGenerator<FeedEvent, void, undefined> {
  let cursor = options.cursor;
  while (!options.signal?.aborted) {
    let answer;
    try {
      answer = await client.GET('/v0/events', {
        params: { query: { order: 'asc', cursor, wait: options.wait ?? 30, limit: options.limit, type: options.type } },
        signal: options.signal,
      });
    } catch (error) {
      if (options.signal?.aborted) return;
      throw error;
    }
    const { data, error, response } = answer;
    if (response.status === 429) {
      await pause(Number(response.headers.get('retry-after') ?? 1) * 1000, options.signal);
      continue;
    }
    if (!data) throw new FeedReadError(response.status, error);
    for (const event of data.items) yield event;
    cursor = data.nextCursor!;
    await options.onCursor?.(cursor);
  }
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}
