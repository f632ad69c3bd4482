import { MikroORM } from '@mikro-orm/postgresql';
import { newTypeId } from '../../src/domain/shared/type-id';
import { openTestOrm } from '../support/database';

let orm: MikroORM;
beforeAll(async () => {
  orm = await openTestOrm();
});
afterAll(() => orm.close(true));

describe('UTM parameters query plan', () => {
  it('renders a summary from each kind’s most recent values through the recency index, never scanning the group', async () => {
    const em = orm.em.fork();
    const tenantId = newTypeId('tenant');
    await em.execute(`INSERT INTO tenants (id, name, created_at) VALUES (?, 'utm plan', now())`, [tenantId]);
    // 200 groups with 1,000 distinct values each: enough rows for the planner to show its real choice.
    // No list reads these groups, so their stored list items are left empty.
    await em.execute(
      `INSERT INTO page_groups (id, tenant_id, name, status, created_at, updated_at, view_head, view_tail)
       SELECT 'page_utmplan' || lpad(g::text, 10, '0') || '0000000000000000', ?, 'g', 'draft', now(), now(), '', '' FROM generate_series(1, 200) g`,
      [tenantId],
    );
    await em.execute(
      `INSERT INTO page_group_utm_values (page_group_id, kind, value, last_seen_at)
       SELECT 'page_utmplan' || lpad(g::text, 10, '0') || '0000000000000000', (ARRAY['campaign','content','medium','source','term'])[1 + v % 5], 'value-' || v, now() - v * interval '1 second'
       FROM generate_series(1, 200) g, generate_series(1, 1000) v`,
    );
    await em.execute('ANALYZE page_group_utm_values');
    const plan = await em.execute<{ 'QUERY PLAN': string }[]>(
      // The query of SqlPageQueries.renderUtmSummary, with a limit the group exceeds.
      `EXPLAIN SELECT k.kind, v.value FROM unnest(ARRAY['campaign','content','medium','source','term']) AS k(kind)
       CROSS JOIN LATERAL (SELECT value FROM page_group_utm_values WHERE page_group_id = 'page_utmplan00000000420000000000000000' AND kind = k.kind
                           ORDER BY last_seen_at DESC LIMIT 100) v`,
    );
    const text = plan.map((row) => row['QUERY PLAN']).join('\n');
    expect(text).toMatch(/Limit[\s\S]*(Index Only Scan|Index Scan) using page_group_utm_values_recent_idx/);
    expect(text).not.toMatch(/Sort|Seq Scan|page_sessions/);
  });
});
