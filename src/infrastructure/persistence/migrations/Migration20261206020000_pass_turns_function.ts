import { Migration } from '@mikro-orm/migrations';
import { PASS_TURNS_FUNCTION_SQL } from '../webhooks/delivery-turns.sql';

/**
 * The worker's pass of ordered pages' turns as one round trip with plans kept for the session
 * (decisions.md 174): a transaction of four round trips and two statements planned at every call
 * was most of each link of an ordered page's chain.
 */
export class Migration20261206020000_pass_turns_function extends Migration {
  override name = 'Migration20261206020000_pass_turns_function';

  override up(): void {
    this.addSql(PASS_TURNS_FUNCTION_SQL);
  }
}
