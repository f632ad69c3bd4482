import { randomBytes } from 'node:crypto';
import { SecretCipher } from '../../src/infrastructure/crypto/secret-cipher';
import { SqlWebhookDeliveryQueries } from '../../src/infrastructure/persistence/queries/sql-webhook-delivery.queries';
import { MikroORM } from '@mikro-orm/postgresql';
import { MikroOrmUnitOfWork } from '../../src/infrastructure/persistence/connection/mikro-orm-unit-of-work';
import { toBrandView } from '../../src/domain/brand/brand.view';
import { toPageGroupView } from '../../src/application/page-group/page-group.view';
import { Brand } from '../../src/domain/brand/brand';
import { EMPTY_THEME } from '../../src/domain/brand/theme';
import { PageGroup } from '../../src/domain/page-group/page-group';
import { Sha256ApiKeySecrets } from '../../src/infrastructure/crypto/sha256-api-key-secrets';
import { SqlBrandQueries } from '../../src/infrastructure/persistence/queries/sql-brand.queries';
import { SqlPageGroupQueries } from '../../src/infrastructure/persistence/queries/sql-page-group.queries';
import { SqlPageRepository } from '../../src/infrastructure/persistence/repositories/sql-page.repository';
import { SqlBrandRepository } from '../../src/infrastructure/persistence/repositories/sql-brand.repository';
import { SqlPageGroupRepository } from '../../src/infrastructure/persistence/repositories/sql-page-group.repository';
import { SqlBulkSeeder } from '../../src/infrastructure/persistence/seeding/sql-bulk-seeder';
import { inUnitOfWork, openTestOrm } from '../support/database';
import { newTenantId } from '../support/builders/stored';
import { aBrand, aPage, aPageGroup } from '../support/builders/aggregates';

// Brands and page groups keep their response JSON beside the row, and the reads send it as
// stored. Every writer renders it from the view function the API answers with (stored-views.ts):
// these tests hold the stored text, byte for byte, to JSON.stringify of that view, for each writer.
let orm: MikroORM;
beforeAll(async () => {
  orm = await openTestOrm();
});
afterAll(() => orm.close(true));

const storedBrand = async (tenantId: string, id: string) => (await new SqlBrandQueries(orm.em.fork()).findById(tenantId, id))!.text;
const listedGroups = async (tenantId: string) =>
  (await new SqlPageGroupQueries(orm.em.fork()).list(tenantId, {}, { limit: 100 })).items.map((item) => item.text);
const loadedGroup = async (tenantId: string, id: string) => (await new SqlPageGroupRepository(orm.em.fork()).findActiveById(tenantId, id))!;

describe('brands: view_json', () => {
  it.each([
    ['quotes, backslashes and a tab', 'Say "hi" \\ to\tall'],
    ['non-ASCII and astral characters', 'Café ☕ — 東京 🚀'],
    ['characters JSON must escape as \\u', 'bell\u0007 unit\u001f sep'],
  ])('equals JSON.stringify of the view for a name with %s', async (_case, name) => {
    const tenantId = await newTenantId(orm, 'Brand views');
    const brand = Brand.create(
      { tenantId, name, preferredAppearance: 'light', themeLight: { buttonTextColor: '#abcdef', favicon: { type: 'url', url: 'https://cdn.example/f.ico?a=1&b="2"' } }, themeDark: {}, companyHomePage: 'https://home.example/é' },
      new Date('2026-11-22T10:11:12.345Z'),
    );
    await inUnitOfWork(orm, () => new SqlBrandRepository(orm.em).add(brand));
    expect(await storedBrand(tenantId, brand.id)).toBe(JSON.stringify(toBrandView(brand)));
  });

  it('follows a PATCH, leaving companyHomePage out once cleared', async () => {
    const tenantId = await newTenantId(orm, 'Brand views');
    const brand = aBrand(tenantId, { name: 'Home', themeLight: {}, companyHomePage: 'https://h.example' });
    await inUnitOfWork(orm, () => new SqlBrandRepository(orm.em).add(brand));
    expect(JSON.parse(await storedBrand(tenantId, brand.id)).companyHomePage).toBe('https://h.example');
    brand.update({ companyHomePage: null, themeDark: { borderColor: '#000' } }, new Date(brand.createdAt.getTime() + 1000));
    await inUnitOfWork(orm, () => new SqlBrandRepository(orm.em).save(brand));
    const text = await storedBrand(tenantId, brand.id);
    expect(text).toBe(JSON.stringify(toBrandView(brand)));
    expect(JSON.parse(text)).not.toHaveProperty('companyHomePage');
    expect(JSON.parse(text).themeDark.borderColor).toBe('#000');
  });

  it('the view lists the 14 theme fields in the spec order even when the theme it is given lacks some', () => {
    const brand = Brand.restore({ ...aBrand('tenant_x'), themeLight: { logoUrl: 'https://l.example/x.png', borderColor: '#000' } as never });
    const view = toBrandView(brand);
    expect(Object.keys(view.themeLight)).toEqual(Object.keys(EMPTY_THEME));
    expect(view.themeLight).toEqual({ ...EMPTY_THEME, borderColor: '#000', logoUrl: 'https://l.example/x.png' });
  });
});

describe('page groups: view_head and view_tail around the count', () => {
  it('equals JSON.stringify of the view, with odd strings, nulls and platform objects', async () => {
    const tenantId = await newTenantId(orm, 'Group views');
    const group = PageGroup.create(
      {
        tenantId,
        name: 'Spring "sale" \\ 東京 🚀 ,"pagesCount":7',
        title: null,
        pageContext: 'line\nbreak\u0001',
        actions: [{ id: 'a1', label: 'Buy "now"', pagesCount: 3, nested: { n: 1.5, ok: true } }],
        footerLinks: [],
        scripts: [{ src: 'https://s.example/x.js' }],
      },
      new Date('2026-11-22T10:11:12.345Z'),
    );
    await new SqlPageGroupRepository(orm.em.fork()).add(group);
    expect(await listedGroups(tenantId)).toEqual([JSON.stringify(toPageGroupView(group))]);
    expect((await new SqlPageGroupQueries(orm.em.fork()).findActive(tenantId, group.id))?.text).toBe(JSON.stringify(toPageGroupView(group)));
  });

  it('follows the count kept by the database, a status change and a delete', async () => {
    const tenantId = await newTenantId(orm, 'Group views');
    const group = aPageGroup(tenantId, { name: 'Counted', actions: [{ type: 'link' }] });
    await new SqlPageGroupRepository(orm.em.fork()).add(group);
    for (let i = 0; i < 2; i++) {
      const { page, firstVersion } = aPage(group);
      await inUnitOfWork(orm, () => new SqlPageRepository(orm.em).add(page, firstVersion), { oneWrite: true });
    }
    const repo = new SqlPageGroupRepository(orm.em.fork());
    const loaded = await loadedGroup(tenantId, group.id);
    expect(loaded.pagesCount).toBe(2);
    loaded.setStatus('published', new Date(group.createdAt.getTime() + 5000));
    await repo.save(loaded);
    const [text] = await listedGroups(tenantId);
    expect(text).toBe(JSON.stringify(toPageGroupView(await loadedGroup(tenantId, group.id))));
    expect(JSON.parse(text)).toMatchObject({ pagesCount: 2, status: 'published', updatedAt: new Date(group.createdAt.getTime() + 5000).toISOString() });

    loaded.softDelete(new Date(group.createdAt.getTime() + 6000));
    await repo.save(loaded);
    expect(await listedGroups(tenantId)).toEqual([]);
    expect(await new SqlPageGroupRepository(orm.em.fork()).findActiveById(tenantId, group.id)).toBeNull();
  });
});

describe('the bulk seeder', () => {
  it('stores the same views as the repositories, and a webhook history of final deliveries the search finds', async () => {
    const result = await new SqlBulkSeeder(orm.em, new Sha256ApiKeySecrets(), new MikroOrmUnitOfWork(orm.em), new SecretCipher(randomBytes(32))).seed(
      { tenants: 1, brands: 3, pageGroups: 3, pagesPerGroup: 2, sessions: 4, hotGroupShare: 0.5, wideUtmSessions: 0, deliveries: 1000 },
      () => undefined,
    );
    const history = new SqlWebhookDeliveryQueries(orm.em.fork());
    const all = await history.search(result.sample.tenantId, {}, { limit: 100 }, new Date(Date.now() + 1000));
    expect(all.items).toHaveLength(100);
    // Every one final: nothing for a worker or the sweeper to take up.
    expect(all.items.filter((d) => !['delivered', 'failed', 'cancelled'].includes(d.status))).toEqual([]);
    const cancelled = await history.search(result.sample.tenantId, { status: 'cancelled' }, { limit: 100 }, new Date(Date.now() + 1000));
    expect(cancelled.items).toHaveLength(5);
    const failed = await history.search(result.sample.tenantId, { status: 'failed' }, { limit: 100 }, new Date(Date.now() + 1000));
    expect(failed.items).toHaveLength(15);
    expect(failed.items.every((d) => d.subjectId !== null && d.attemptCount === 5)).toBe(true);
    const { tenantId } = result.sample;
    const brands = await new SqlBrandQueries(orm.em.fork()).list(tenantId, { limit: 100 });
    expect(brands.items).toHaveLength(3);
    for (const item of brands.items) {
      const brand = (await new SqlBrandRepository(orm.em.fork()).findById(tenantId, JSON.parse(item.text).brandId))!;
      expect(item.text).toBe(JSON.stringify(toBrandView(brand)));
    }
    const groups = await listedGroups(tenantId);
    expect(groups).toHaveLength(3);
    for (const text of groups) {
      const group = await loadedGroup(tenantId, JSON.parse(text).pageGroupId);
      expect(group.pagesCount).toBe(2);
      expect(text).toBe(JSON.stringify(toPageGroupView(group)));
    }
  });
});
