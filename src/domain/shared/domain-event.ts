/**
 * Something that happened in the model, recorded by an aggregate and written to the outbox in
 * the same transaction as the change (so a change and its event commit or fail together).
 */
export interface DomainEvent<Data extends object = object> {
  /** `evt_…`, also the webhook delivery's event id. */
  id: string;
  /** Dotted kind from the event catalogue, e.g. `page.version.created`. */
  type: string;
  tenantId: string;
  occurredAt: Date;
  data: Data;
}
