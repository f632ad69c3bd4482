import { Migration } from '@mikro-orm/migrations';

/**
 * Bounds on what a tenant's requests can cost (issue 27).
 * - The tenant's manual deliveries waiting to be sent, counted by every redeliver, recover and
 *   test request (WEBHOOK_MANUAL_PENDING_MAX): an index of those rows only, small by that bound.
 */
export class Migration20261125090000_abuse_bounds extends Migration {
  override name = 'Migration20261125090000_abuse_bounds';

  override up(): void {
    this.addSql(`CREATE INDEX webhook_deliveries_manual_waiting_idx ON webhook_deliveries (tenant_id)
                 WHERE manual_id IS NOT NULL AND status IN ('pending', 'sending')`);
  }
}
