import { CreateApiKey } from '../../../../src/application/api-key/create-api-key.use-case';
import { CreateBrand } from '../../../../src/application/brand/create-brand.use-case';
import { CreatePageGroup } from '../../../../src/application/page-group/create-page-group.use-case';
import { CreatePage } from '../../../../src/application/page/create-page.use-case';
import { CreatePageVersion } from '../../../../src/application/page/create-page-version.use-case';
import { RecordSession } from '../../../../src/application/page/record-session.use-case';
import { SeedDemo } from '../../../../src/application/seed/seed-demo.use-case';
import { CreateSystemTemplate } from '../../../../src/application/template/create-system-template.use-case';
import { CreateTenant } from '../../../../src/application/tenant/create-tenant.use-case';
import { FixedClock } from '../../../support/fakes/fixed-clock';
import { ImmediateUnitOfWork } from '../../../support/fakes/immediate-unit-of-work';
import { InMemoryBrands } from '../../../support/fakes/in-memory-brand.store';
import { CountingSecrets, InMemoryApiKeys, InMemoryTenants } from '../../../support/fakes/in-memory-keys';
import { InMemoryGroupQueries, InMemoryGroups, InMemoryPages, InMemorySessions, InMemoryTemplates, InMemoryVersions } from '../../../support/fakes/in-memory-pages';

describe('SeedDemo', () => {
  it('makes a ready tenant in one unit of work: a key, a brand, two system templates, a group per status with two pages of two versions and four sessions each', async () => {
    const clock = new FixedClock(new Date('2026-11-22T12:00:00.000Z'));
    const unitOfWork = new ImmediateUnitOfWork();
    const [tenants, keys, brands, templates, groups, pages, sessions] = [
      new InMemoryTenants(), new InMemoryApiKeys(), new InMemoryBrands(), new InMemoryTemplates(), new InMemoryGroups(), new InMemoryPages(), new InMemorySessions(),
    ];
    const seed = new SeedDemo(
      unitOfWork,
      new CreateTenant(tenants, clock, unitOfWork),
      new CreateApiKey(tenants, keys, new CountingSecrets(), clock, unitOfWork),
      new CreateBrand(brands, clock, unitOfWork),
      new CreateSystemTemplate(templates, clock, unitOfWork),
      new CreatePageGroup(tenants, brands, templates, groups, clock, unitOfWork),
      new CreatePage(groups, templates, pages, clock, unitOfWork),
      new CreatePageVersion(pages, new InMemoryVersions(pages), templates, new InMemoryGroupQueries(groups), unitOfWork, clock),
      new RecordSession(pages, sessions, clock, unitOfWork),
    );
    const made = await seed.execute();
    expect(tenants.rows.has(made.tenantId)).toBe(true);
    expect([...keys.rows.values()].map((k) => k.tenantId)).toEqual([made.tenantId]);
    expect(made.pageGroupIds.map((id) => groups.rows.get(id)!.status)).toEqual(['draft', 'published', 'archived']);
    expect(pages.pages.size).toBe(6);
    expect(pages.versions.map((v) => v.number).sort()).toEqual([1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2]);
    expect(sessions.rows).toHaveLength(24);
    // Every write recorded its event through its aggregate: the brand's and each version's.
    expect(brands.events.map((e) => e.type)).toEqual(['brand.created']);
    expect(pages.outbox.filter((e) => e.type === 'page.version.created')).toHaveLength(12);
    expect(unitOfWork.runs).toBeGreaterThan(1);
  });
});
