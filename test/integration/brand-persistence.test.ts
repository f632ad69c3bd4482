import { MikroORM } from '@mikro-orm/postgresql';
import { SqlBrandQueries } from '../../src/infrastructure/persistence/queries/sql-brand.queries';
import { SqlBrandRepository } from '../../src/infrastructure/persistence/repositories/sql-brand.repository';
import { Brand } from '../../src/domain/brand/brand';
import { toBrandView } from '../../src/domain/brand/brand.view';
import { inUnitOfWork, openTestOrm } from '../support/database';
import { newTenantId } from '../support/builders/stored';
import { aBrand } from '../support/builders/aggregates';
import { eventBody } from '../../src/infrastructure/persistence/outbox/outbox.writer';
import { sqlRows } from '../../src/infrastructure/persistence/connection/sql-statement';

let orm: MikroORM;
beforeAll(async () => {
  orm = await openTestOrm();
});
afterAll(() => orm.close(true));

const newTenant = () => newTenantId(orm, 'Repo tenant');
const outboxBodies = (eventId: string) => sqlRows<{ type: string; body: string }>(orm.em.fork(), 'SELECT type, body FROM outbox_events WHERE id = $1', [eventId]);

const brand = (tenantId: string, name: string, at = new Date()): Brand => aBrand(tenantId, { name }, at);

describe('SqlBrandRepository', () => {
  it('adds a brand with its event in one statement, and reads the same aggregate back in a fresh context', async () => {
    const tenantId = await newTenant();
    const original = brand(tenantId, 'Stored');
    const [event] = original.peekEvents();
    await inUnitOfWork(orm, () => new SqlBrandRepository(orm.em).add(original), { oneWrite: true });
    expect(await outboxBodies(event.id)).toEqual([{ type: 'brand.created', body: eventBody(event) }]);
    const loaded = await new SqlBrandRepository(orm.em.fork()).findById(tenantId, original.id);
    expect(loaded).toBeInstanceOf(Brand);
    expect(toBrandView(loaded!)).toEqual(toBrandView(original));
  });

  it('updates through the aggregate: one UPDATE, read back by the query side in the spec order', async () => {
    const tenantId = await newTenant();
    const original = brand(tenantId, 'Before');
    await inUnitOfWork(orm, () => new SqlBrandRepository(orm.em).add(original));
    const loaded = (await new SqlBrandRepository(orm.em.fork()).findById(tenantId, original.id))!;
    loaded.update({ name: 'After', themeLight: { borderColor: null, logo: { type: 'url', url: 'https://x.example/l.png' } } }, new Date());
    const [event] = loaded.peekEvents();
    expect(event.type).toBe('brand.updated');
    await inUnitOfWork(orm, () => new SqlBrandRepository(orm.em).save(loaded));
    expect(await outboxBodies(event.id)).toEqual([{ type: 'brand.updated', body: eventBody(event) }]);
    const view = await new SqlBrandQueries(orm.em.fork()).findById(tenantId, original.id);
    // Byte for byte what the aggregate's view serialises to: PostgreSQL rendered it on UPDATE.
    expect(view!.text).toBe(JSON.stringify(toBrandView(loaded)));
    expect(Object.keys(JSON.parse(view!.text).themeLight)[0]).toBe('borderColor');
  });

  it("never returns another tenant's brand", async () => {
    const owner = await newTenant();
    const other = await newTenant();
    const stored = brand(owner, 'Private');
    await inUnitOfWork(orm, () => new SqlBrandRepository(orm.em).add(stored));
    expect(await new SqlBrandRepository(orm.em.fork()).findById(other, stored.id)).toBeNull();
    expect(await new SqlBrandQueries(orm.em.fork()).findById(other, stored.id)).toBeNull();
    expect((await new SqlBrandQueries(orm.em.fork()).list(other, { limit: 100 })).items).toEqual([]);
  });

  it('refuses a row that breaks the table rules even if the model were bypassed, and writes no event', async () => {
    const tenantId = await newTenant();
    // Restored with a name the model refuses, then changed without touching the name: it records an event.
    const bad = Brand.restore({ ...brand(tenantId, 'ok'), name: '' });
    bad.update({}, new Date());
    const [event] = bad.peekEvents();
    await expect(inUnitOfWork(orm, () => new SqlBrandRepository(orm.em).add(bad))).rejects.toThrow();
    expect(await outboxBodies(event.id)).toEqual([]);
  });
});

describe('SqlBrandQueries keyset pages', () => {
  it('walks every brand once, newest first, across exact page edges', async () => {
    const tenantId = await newTenant();
    const ids: string[] = [];
    for (let i = 0; i < 9; i++) {
      const b = brand(tenantId, `p${i}`);
      await inUnitOfWork(orm, () => new SqlBrandRepository(orm.em).add(b));
      ids.push(b.id);
    }
    const queries = new SqlBrandQueries(orm.em.fork());
    const pages: string[][] = [];
    let after: string | undefined;
    for (;;) {
      const page = await queries.list(tenantId, { limit: 3, after });
      pages.push(page.items.map((b) => JSON.parse(b.text).brandId));
      if (!page.hasMore) {
        expect(page.lastId).toBeUndefined();
        break;
      }
      after = page.lastId;
    }
    expect(pages).toEqual([ids.slice(6).reverse(), ids.slice(3, 6).reverse(), ids.slice(0, 3).reverse()]);
  });

  it('answers from an index range scan on (tenant_id, id)', async () => {
    const tenantId = await newTenant();
    // The test database's brands table is small, so a sequential or bitmap scan and a sort may be
    // cheaper for the planner (by the statistics of the moment); with those priced out, what is
    // left shows whether an index serves the query in its order (without one, the plan still
    // scans the table).
    const rows = await inUnitOfWork(orm, async () => {
      await sqlRows(orm.em, 'SET LOCAL enable_seqscan = off');
      await sqlRows(orm.em, 'SET LOCAL enable_bitmapscan = off');
      return sqlRows<{ 'QUERY PLAN': string }>(orm.em, 'EXPLAIN SELECT id FROM brands WHERE tenant_id = $1 AND id < $2 ORDER BY id DESC LIMIT 21', [tenantId, 'brand_7zzzzzzzzzzzzzzzzzzzzzzzzz']);
    });
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).toMatch(/Index (Only )?Scan (Backward )?using (brands_tenant_id_id_idx|brands_pkey)/);
  });
});
