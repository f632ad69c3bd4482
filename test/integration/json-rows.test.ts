import { Client } from 'pg';
import { epochMs, fromEpochMs } from '../../src/infrastructure/persistence/connection/json-rows';
import { testDatabaseUrl } from '../support/test-database-url';

// Times in a JSON parameter travel as epoch milliseconds and come back as the same instant in
// the history's timestamp(3) columns, to the millisecond, including the edges of a second where a
// binary fraction could round the wrong way.
describe('rows as one JSON parameter', () => {
  let pg: Client;
  beforeAll(async () => {
    pg = new Client({ connectionString: testDatabaseUrl() });
    await pg.connect();
  });
  afterAll(() => pg.end());

  it('reads every millisecond back as it was sent, and null as null', async () => {
    const times = [
      new Date('2026-11-29T10:00:00.000Z'),
      new Date('2026-11-29T10:00:00.001Z'),
      new Date('2026-11-29T10:00:00.999Z'),
      new Date('1999-12-31T23:59:59.999Z'),
      new Date('2099-01-01T00:00:00.005Z'),
      ...Array.from({ length: 200 }, (_, i) => new Date(1_764_400_000_000 + i * 7_919_993)),
    ];
    const rows = [...times, null].map((at, n) => ({ n, at: epochMs(at) }));
    const { rows: back } = await pg.query<{ n: number; at: Date | null }>(
      `SELECT n, ${fromEpochMs('at')}::timestamp(3) with time zone AS at FROM json_to_recordset($1::json) AS r(n int, at float8) ORDER BY n`,
      [JSON.stringify(rows)],
    );
    expect(back.map((r) => r.at?.toISOString() ?? null)).toEqual([...times.map((t) => t.toISOString()), null]);
  });
});
