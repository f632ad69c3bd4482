import { Migration } from '@mikro-orm/migrations';

/**
 * The days of webhook history kept past their retention for a tenant whose deliveries there were
 * given up (decisions.md 173): the day stays a notice longer so that the tenant's delivery log
 * says why, then goes with its rows here. `day` is the partitions' ending (`_p20261128`).
 */
export class Migration20261206010000_history_holds extends Migration {
  override name = 'Migration20261206010000_history_holds';

  override up(): void {
    this.addSql(`CREATE TABLE webhook_history_holds (
      day text COLLATE "C" NOT NULL,
      tenant_id text COLLATE "C" NOT NULL,
      given_up_at timestamp(3) with time zone NOT NULL,
      PRIMARY KEY (day, tenant_id))`);
  }
}
