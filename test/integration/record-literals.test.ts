import { Client } from 'pg';
import { numberField, rowsLiteral, textField } from '../../src/infrastructure/persistence/connection/record-literals';
import { newTypeId } from '../../src/domain/shared/type-id';
import { AttemptRecord, recordRows } from '../../src/infrastructure/persistence/webhooks/delivery-attempts.sql';
import { testDatabaseUrl } from '../support/test-database-url';

// Rows as one array of a composite type (record-literals.ts): every text comes back from
// PostgreSQL as it was written, whatever it holds (quotes, backslashes, the literals' own
// punctuation, blanks, line breaks, the word NULL, non-ASCII), null as NULL and an empty text as
// an empty text; every number as it was.
describe('rows as one array of a composite type', () => {
  let pg: Client;
  beforeAll(async () => {
    pg = new Client({ connectionString: testDatabaseUrl() });
    await pg.connect();
    await pg.query('CREATE TEMPORARY TABLE literal_row (t text, n float8, u text)');
  });
  afterAll(() => pg.end());

  const roundTrip = async (rows: [string | null, number | null, string | null][]) => {
    const literal = rowsLiteral(rows.map(([t, n, u]) => `${textField(t)},${numberField(n)},${textField(u)}`));
    const { rows: back } = await pg.query<{ t: string | null; n: number | null; u: string | null }>('SELECT t, n, u FROM unnest($1::literal_row[])', [literal]);
    return back.map((r) => [r.t, r.n, r.u]);
  };

  it('reads back texts that hold what the literals escape, null, empty and numbers', async () => {
    const texts = ['', 'plain', 'a"b', 'back\\slash', '\\"', '""', '(a,b)', '{x,y}', ' spaced ', 'two\nlines\ttab', 'NULL', 'ünï😀', ',', ')', '"(', '\\\\'];
    const rows = texts.map((t, i): [string | null, number | null, string | null] => [t, i === 3 ? null : i * 1.5 - 7, i % 2 === 0 ? null : t]);
    expect(await roundTrip(rows)).toEqual(rows);
  });

  it('reads back random texts over the characters that matter', async () => {
    // A fixed seed: the same texts each run.
    let seed = 42;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
    const alphabet = ['"', '\\', ',', '(', ')', '{', '}', ' ', '\n', 'a', 'Z', '0', 'é', '😀', "'"];
    const text = () => Array.from({ length: next() % 12 }, () => alphabet[next() % alphabet.length]).join('');
    const rows = Array.from({ length: 300 }, (): [string | null, number | null, string | null] => [text(), next(), next() % 5 === 0 ? null : text()]);
    expect(await roundTrip(rows)).toEqual(rows);
  });

  it('refuses a number that is not finite rather than write something else', () => {
    expect(() => numberField(Number.NaN)).toThrow(RangeError);
    expect(() => numberField(Infinity)).toThrow(RangeError);
  });

  it("writes an attempt's record in webhook_attempt_record's fields, as the statement reads them", async () => {
    const at = new Date('2026-11-29T10:00:00.123Z');
    const record: AttemptRecord = {
      id: newTypeId('whatt'), tenantId: 'tenant_"x"', deliveryId: newTypeId('whdlv'), subscriptionId: 'whsub_1', eventId: newTypeId('evt'), eventType: 'page.version.created',
      attempt: 3, statusCode: null, durationMs: 2000, error: 'connection failed (ECONNRESET)', nextAttemptAt: new Date(at.getTime() + 60_000), at, status: 'pending',
      finishedAt: null, trigger: 'manual', redeliveryOf: 'whdlv_0', sentAt: new Date(at.getTime() - 2000),
      responseExcerpt: '{"error": "over (quota)", "path": "C:\\\\x"}\nline two, é',
    };
    const { rows } = await pg.query('SELECT * FROM unnest($1::webhook_attempt_record[])', [recordRows([record])]);
    expect(rows).toEqual([
      {
        id: record.id, tenant_id: 'tenant_"x"', delivery_id: record.deliveryId, subscription_id: 'whsub_1', event_id: record.eventId, event_type: 'page.version.created',
        attempt_number: 3, status_code: null, duration_ms: 2000, error: 'connection failed (ECONNRESET)', next_attempt_at: at.getTime() + 60_000, created_at: at.getTime(),
        status: 'pending', finished_at: null, trigger: 'manual', redelivery_of: 'whdlv_0', sent_at: at.getTime() - 2000,
        response_excerpt: record.responseExcerpt,
      },
    ]);
  });
});
