import { Client } from 'pg';
import { newTypeId } from '../../src/domain/shared/type-id';
import { testDatabaseUrl } from '../support/test-database-url';
import { eventually } from '../support/eventually';

// The JSON summary of a group's UTM values is kept by a statement trigger
// (Migration20261122040000_utm_summaries). Two transactions adding values to the same group at
// once must both be in the summary once both have committed.
let admin: Client;
let tenantId: string;
beforeAll(async () => {
  admin = new Client({ connectionString: testDatabaseUrl() });
  await admin.connect();
  tenantId = newTypeId('tenant');
  await admin.query(`INSERT INTO tenants (id, name, created_at) VALUES ($1, 'utm summary', now())`, [tenantId]);
});
afterAll(() => admin.end());

async function newGroup(): Promise<string> {
  const id = newTypeId('page');
  await admin.query(`INSERT INTO page_groups (id, tenant_id, name, status, created_at, updated_at) VALUES ($1, $2, 'g', 'draft', now(), now())`, [id, tenantId]);
  return id;
}

async function summary(groupId: string): Promise<unknown> {
  const { rows } = await admin.query('SELECT body FROM page_group_utm_summaries WHERE page_group_id = $1', [groupId]);
  return JSON.parse(rows[0].body);
}

const insertValue = (client: Client, groupId: string, value: string) =>
  client.query(`INSERT INTO page_group_utm_values (page_group_id, kind, value) VALUES ($1, 'source', $2) ON CONFLICT DO NOTHING`, [groupId, value]);

async function concurrentWriters(groupId: string, first: string, second: string): Promise<void> {
  const [one, two] = [new Client({ connectionString: testDatabaseUrl() }), new Client({ connectionString: testDatabaseUrl() })];
  await Promise.all([one.connect(), two.connect()]);
  try {
    const twoPid = (await two.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    await one.query('BEGIN');
    await two.query('BEGIN');
    await insertValue(one, groupId, first);
    const secondInsert = insertValue(two, groupId, second);
    // The second writer must be waiting on the first one's lock before the first commits.
    await eventually(
      async () => (await admin.query(`SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1`, [twoPid])).rows[0].wait_event_type,
      (waiting) => waiting === 'Lock',
    );
    await one.query('COMMIT');
    await secondInsert;
    await two.query('COMMIT');
  } finally {
    await Promise.all([one.end(), two.end()]);
  }
}

describe('UTM summary kept by PostgreSQL', () => {
  it('holds both values when two writers add the first values of a group at once', async () => {
    const groupId = await newGroup();
    await concurrentWriters(groupId, 'beta', 'alpha');
    expect(await summary(groupId)).toEqual({ utm_campaigns: [], utm_contents: [], utm_mediums: [], utm_sources: ['alpha', 'beta'], utm_terms: [] });
  });

  it('holds both values when two writers add to a group that already has a summary', async () => {
    const groupId = await newGroup();
    await insertValue(admin, groupId, 'gamma');
    await concurrentWriters(groupId, 'delta', 'epsilon');
    expect(await summary(groupId)).toEqual({ utm_campaigns: [], utm_contents: [], utm_mediums: [], utm_sources: ['delta', 'epsilon', 'gamma'], utm_terms: [] });
  });

  it('is unchanged by a value the group already has, and rebuilt for every group a statement touches', async () => {
    const [a, b] = [await newGroup(), await newGroup()];
    await admin.query(
      `INSERT INTO page_group_utm_values (page_group_id, kind, value) VALUES ($1, 'term', 'x'), ($2, 'medium', 'email'), ($1, 'campaign', 'spring') ON CONFLICT DO NOTHING`,
      [a, b],
    );
    await insertValue(admin, a, 'dup');
    await insertValue(admin, a, 'dup');
    expect(await summary(a)).toEqual({ utm_campaigns: ['spring'], utm_contents: [], utm_mediums: [], utm_sources: ['dup'], utm_terms: ['x'] });
    expect(await summary(b)).toEqual({ utm_campaigns: [], utm_contents: [], utm_mediums: ['email'], utm_sources: [], utm_terms: [] });
  });
});
