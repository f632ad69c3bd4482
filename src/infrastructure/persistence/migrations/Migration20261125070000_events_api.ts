import { Migration } from '@mikro-orm/migrations';

// GET /v0/events reads the outbox as the tenant's event log, newest first, optionally of one type
// (issue 20): a keyset walk on each index below, never a scan of other tenants' events.
export class Migration20261125070000_events_api extends Migration {
  override name = 'Migration20261125070000_events_api';

  override up(): void {
    this.addSql(`CREATE INDEX outbox_events_tenant_idx ON outbox_events (tenant_id, id DESC)`);
    this.addSql(`CREATE INDEX outbox_events_tenant_type_idx ON outbox_events (tenant_id, type, id DESC)`);
  }
}
