import { MikroORM } from '@mikro-orm/postgresql';
import { toPageGroupView } from '../../src/application/page-group/page-group.view';
import { Page } from '../../src/domain/page/page';
import { PageGroup } from '../../src/domain/page-group/page-group';
import { SqlPageGroupQueries } from '../../src/infrastructure/persistence/queries/sql-page-group.queries';
import { MikroOrmPageGroupRepository } from '../../src/infrastructure/persistence/repositories/mikro-orm-page-group.repository';
import { MikroOrmPageRepository } from '../../src/infrastructure/persistence/repositories/mikro-orm-page.repository';
import { inContext, openTestOrm } from '../support/database';
import { newTenantId } from '../support/tenants';

// A page group's list item JSON is rendered by PostgreSQL (trigger of Migration...070000, split
// around the count by Migration...20261123000000) and sent as stored with the counter spliced in:
// held here to the application's own view of the same aggregate.
let orm: MikroORM;
beforeAll(async () => {
  orm = await openTestOrm();
});
afterAll(() => orm.close(true));

const newTenant = () => newTenantId(orm, 'Group views');

const listed = async (tenantId: string) => (await new SqlPageGroupQueries(orm.em.fork()).list(tenantId, {}, { limit: 100 })).items.map((item) => item.text);

describe('page group view JSON kept by PostgreSQL', () => {
  it('is valid JSON equal to the view, with odd strings, nulls and platform objects', async () => {
    const tenantId = await newTenant();
    const group = PageGroup.create(
      {
        tenantId,
        name: 'Spring "sale" \\ 東京 🚀',
        title: null,
        pageContext: 'line\nbreak\u0001',
        actions: [{ id: 'a1', label: 'Buy "now"', nested: { n: 1.5, ok: true } }],
        footerLinks: [],
        scripts: [{ src: 'https://s.example/x.js' }],
      },
      new Date('2026-11-22T10:11:12.345Z'),
    );
    await new MikroOrmPageGroupRepository(orm.em.fork()).save(group);
    const [text] = await listed(tenantId);
    expect(JSON.parse(text)).toEqual(toPageGroupView(group));
    expect(Object.keys(JSON.parse(text))).toEqual(Object.keys(toPageGroupView(group)));
  });

  it('follows the pages count kept by the database and a status change', async () => {
    const tenantId = await newTenant();
    const group = PageGroup.create({ tenantId, name: 'Counted' }, new Date());
    await new MikroOrmPageGroupRepository(orm.em.fork()).save(group);
    for (let i = 0; i < 2; i++) {
      const { page, firstVersion } = Page.create({ tenantId, pageGroupId: group.id, pageTemplateId: null }, new Date());
      await inContext(orm, () => new MikroOrmPageRepository(orm.em).saveNew(page, firstVersion));
    }
    const repo = new MikroOrmPageGroupRepository(orm.em.fork());
    const loaded = (await repo.findActiveById(tenantId, group.id))!;
    loaded.setStatus('published', new Date(group.createdAt.getTime() + 5000));
    await repo.save(loaded);
    const view = JSON.parse((await listed(tenantId))[0]);
    expect(view).toEqual(toPageGroupView((await repo.findActiveById(tenantId, group.id))!));
    expect(view.pagesCount).toBe(2);
    expect(view.status).toBe('published');
    expect(view.updatedAt).toBe(new Date(group.createdAt.getTime() + 5000).toISOString());
  });
});
