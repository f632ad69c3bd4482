import { sql } from 'kysely';
import { schema } from '../typed/database';

/**
 * A page group's count of pages: the sum of its counter rows (Migration...20261123000000), for a
 * statement that reads the group as `g`.
 */
export function pagesCountOfGroup() {
  return schema
    .selectFrom('page_group_counters as c')
    .select(sql<number>`sum(c.pages_count)::int`.as('n'))
    .where('c.page_group_id', '=', sql.ref<string>('g.id'));
}
