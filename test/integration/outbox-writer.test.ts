import { MikroORM } from '@mikro-orm/postgresql';
import { DomainEvent } from '../../src/domain/shared/domain-event';
import { newTypeId } from '../../src/domain/shared/type-id';
import { eventBody, outboxInsert, outboxParams } from '../../src/infrastructure/persistence/outbox/outbox.writer';
import { openTestOrm, sqlIn } from '../support/database';
import { newTenantId } from '../support/builders/stored';

let orm: MikroORM;
let tenantId: string;
beforeAll(async () => {
  orm = await openTestOrm();
  tenantId = await newTenantId(orm, 'Outbox writer');
});
afterAll(() => orm.close(true));

function event(data: object): DomainEvent {
  return { id: newTypeId('evt'), type: 'brand.updated', tenantId, occurredAt: new Date('2026-11-26T06:30:00.123Z'), data };
}

describe('the outbox writer', () => {
  it('stores each body byte for byte as eventBody made it (it is what deliveries sign), with the other columns', async () => {
    // Escapes, non-ASCII text, a lone backslash, JSON inside a string, numbers JSON would reformat if parsed.
    const tricky = event({ name: 'Ünïcödé "quoted" \\ back\nline \u2028 \ud83d\ude00', nested: { json: '{"a":1}', n: 1e21, f: 0.1 }, list: [null, true, -0] });
    const plain = event({ brandId: 'brand_x' });
    const text = `${outboxInsert(1)} RETURNING id`;
    await sqlIn(orm, text.replace('$1', '?'), outboxParams([tricky, plain]));
    const rows = await sqlIn<{ id: string; tenant_id: string; type: string; body: string; created_at: string; published_at: string | null }>(
      orm,
      'SELECT id, tenant_id, type, body, created_at, published_at FROM outbox_events WHERE id IN (?, ?) ORDER BY id',
      [tricky.id, plain.id],
    );
    expect(rows.map((r) => r.body)).toEqual([eventBody(tricky), eventBody(plain)]);
    expect(rows.map((r) => [r.id, r.tenant_id, r.type, new Date(r.created_at).toISOString(), r.published_at])).toEqual([
      [tricky.id, tenantId, 'brand.updated', '2026-11-26T06:30:00.123Z', null],
      [plain.id, tenantId, 'brand.updated', '2026-11-26T06:30:00.123Z', null],
    ]);
  });

  it('queues each event for the relay in the statement that writes it; one written relayed is not queued', async () => {
    const queued = event({ brandId: 'brand_q' });
    const relayed = event({ brandId: 'brand_r' });
    await sqlIn(orm, outboxInsert(1).replace('$1', '?'), outboxParams([queued]));
    await sqlIn(orm, outboxInsert(1, { relayed: true }).replace('$1', '?'), outboxParams([relayed]));
    const rows = await sqlIn<{ id: string; queued: boolean; published: boolean }>(
      orm,
      `SELECT o.id, EXISTS (SELECT 1 FROM outbox_unpublished q WHERE q.id = o.id) AS queued, o.published_at IS NOT NULL AS published
       FROM outbox_events o WHERE o.id IN (?, ?) ORDER BY o.id`,
      [queued.id, relayed.id],
    );
    expect(rows).toEqual([
      { id: queued.id, queued: true, published: false },
      { id: relayed.id, queued: false, published: true },
    ]);
  });

  it('writes nothing for no events', async () => {
    // Counted for a tenant of its own: other test files write events to the same database at once.
    const quiet = await newTenantId(orm, 'Outbox writer, no events');
    await sqlIn(orm, outboxInsert(1).replace('$1', '?'), outboxParams([]));
    const written = await sqlIn<{ n: string }>(orm, 'SELECT count(*) AS n FROM outbox_events WHERE tenant_id = ?', [quiet]);
    expect(Number(written[0].n)).toBe(0);
    // The same statement with one event of that tenant writes exactly one row: the count can tell.
    await sqlIn(orm, outboxInsert(1).replace('$1', '?'), outboxParams([{ ...event({}), tenantId: quiet }]));
    const after = await sqlIn<{ n: string }>(orm, 'SELECT count(*) AS n FROM outbox_events WHERE tenant_id = ?', [quiet]);
    expect(Number(after[0].n)).toBe(1);
  });
});
