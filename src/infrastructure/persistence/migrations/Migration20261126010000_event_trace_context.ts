import { Migration } from '@mikro-orm/migrations';

/**
 * The W3C trace context of the request that wrote each event (issue 32): `traceparent` and, when
 * the caller sent one, `tracestate`. The event's attempts run in that trace and send the receiver
 * their own `traceparent`. Null for events written outside a trace (the CLI) and for older rows.
 * Bounded like the headers they come from (55 characters; tracestate at most 512 by the spec).
 */
export class Migration20261126010000_event_trace_context extends Migration {
  override name = 'Migration20261126010000_event_trace_context';

  override up(): void {
    this.addSql(`ALTER TABLE outbox_events
                   ADD COLUMN traceparent text CHECK (length(traceparent) = 55),
                   ADD COLUMN tracestate text CHECK (length(tracestate) <= 512)`);
  }
}
