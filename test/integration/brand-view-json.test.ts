import { MikroORM } from '@mikro-orm/postgresql';
import { toBrandView } from '../../src/application/brand/brand.view';
import { Brand } from '../../src/domain/brand/brand';
import { EMPTY_THEME } from '../../src/domain/brand/theme';
import { Tenant } from '../../src/domain/tenant/tenant';
import { SqlBrandQueries } from '../../src/infrastructure/persistence/queries/sql-brand.queries';
import { SqlBrandRepository } from '../../src/infrastructure/persistence/repositories/sql-brand.repository';
import { MikroOrmTenantRepository } from '../../src/infrastructure/persistence/repositories/mikro-orm-tenant.repository';
import { openTestOrm } from '../support/database';

// The brand's response JSON is rendered by PostgreSQL (trigger of Migration...060000) and sent as
// stored. These tests hold it to what the application's own view serialises to, byte for byte.
let orm: MikroORM;
let tenantId: string;
beforeAll(async () => {
  orm = await openTestOrm();
  const tenant = Tenant.create('View tenant', new Date());
  await new MikroOrmTenantRepository(orm.em.fork()).save(tenant);
  tenantId = tenant.id;
});
afterAll(() => orm.close(true));

const stored = async (id: string) => (await new SqlBrandQueries(orm.em.fork()).findById(tenantId, id))!.text;

describe('brand view JSON kept by PostgreSQL', () => {
  it.each([
    ['quotes, backslashes and a tab', 'Say "hi" \\ to\tall'],
    ['non-ASCII and astral characters', 'Café ☕ — 東京 🚀'],
    ['characters JSON must escape as \\u', 'bell\u0007 unit\u001f sep'],
  ])('equals JSON.stringify of the view for a name with %s', async (_case, name) => {
    const brand = Brand.create(
      { tenantId, name, preferredAppearance: 'light', themeLight: { buttonTextColor: '#abcdef', favicon: { type: 'url', url: 'https://cdn.example/f.ico?a=1&b="2"' } }, themeDark: {}, companyHomePage: 'https://home.example/é' },
      new Date('2026-11-22T10:11:12.345Z'),
    );
    await new SqlBrandRepository(orm.em.fork()).add(brand);
    expect(await stored(brand.id)).toBe(JSON.stringify(toBrandView(brand)));
  });

  it('leaves companyHomePage out when unset and follows a PATCH that clears it', async () => {
    const brand = Brand.create({ tenantId, name: 'Home', preferredAppearance: 'dark', themeLight: {}, themeDark: {}, companyHomePage: 'https://h.example' }, new Date());
    const repo = new SqlBrandRepository(orm.em.fork());
    await repo.add(brand);
    expect(JSON.parse(await stored(brand.id)).companyHomePage).toBe('https://h.example');
    brand.update({ companyHomePage: null }, new Date(brand.createdAt.getTime() + 1000));
    await repo.save(brand);
    const text = await stored(brand.id);
    expect(text).toBe(JSON.stringify(toBrandView(brand)));
    expect(JSON.parse(text)).not.toHaveProperty('companyHomePage');
  });

  it('completes a theme written by hand with fields missing, in the spec order', async () => {
    const id = 'brand_01jdq8w9k1a2b3c4d5e6f7g8h9';
    await orm.em.fork().getConnection().execute(
      `INSERT INTO brands (id, tenant_id, name, preferred_appearance, theme_light, theme_dark, created_at, updated_at)
       VALUES (?, ?, 'Old row', 'dark', '{"logoUrl": "https://l.example/x.png", "borderColor": "#000"}', '{}', now(), now())`,
      [id, tenantId],
    );
    const view = JSON.parse(await stored(id));
    expect(Object.keys(view.themeLight)).toEqual(Object.keys(EMPTY_THEME));
    expect(view.themeLight).toEqual({ ...EMPTY_THEME, borderColor: '#000', logoUrl: 'https://l.example/x.png' });
    expect(view.themeDark).toEqual(EMPTY_THEME);
  });
});
