import { CreatePageGroup } from '../../../../src/application/page-group/create-page-group.use-case';
import { DeletePageGroup } from '../../../../src/application/page-group/delete-page-group.use-case';
import { SetPageGroupStatus } from '../../../../src/application/page-group/set-page-group-status.use-case';
import { RecordSession } from '../../../../src/application/page/record-session.use-case';
import { CreateSystemTemplate } from '../../../../src/application/template/create-system-template.use-case';
import { Page } from '../../../../src/domain/page/page';
import { InvalidValueError, NotFoundError } from '../../../../src/domain/shared/domain-error';
import { Tenant } from '../../../../src/domain/tenant/tenant';
import { FixedClock } from '../../../support/fakes/fixed-clock';
import { ImmediateUnitOfWork } from '../../../support/fakes/immediate-unit-of-work';
import { InMemoryTenants } from '../../../support/fakes/in-memory-keys';
import { InMemoryBrands } from '../../../support/fakes/in-memory-brand.store';
import { InMemoryGroups, InMemoryPages, InMemorySessions, InMemoryTemplates } from '../../../support/fakes/in-memory-pages';

const T0 = new Date('2026-11-22T12:00:00.000Z');

function setup() {
  const clock = new FixedClock(T0);
  const tenants = new InMemoryTenants();
  const tenant = Tenant.create('Acme', T0);
  void tenants.add(tenant);
  const groups = new InMemoryGroups();
  const templates = new InMemoryTemplates();
  const pages = new InMemoryPages();
  const sessions = new InMemorySessions();
  const unitOfWork = new ImmediateUnitOfWork();
  return {
    clock, tenant, groups, templates, pages, sessions, unitOfWork,
    createGroup: new CreatePageGroup(tenants, new InMemoryBrands(), templates, groups, clock, unitOfWork),
    setStatus: new SetPageGroupStatus(groups, clock, unitOfWork),
    deleteGroup: new DeletePageGroup(groups, clock, unitOfWork),
    recordSession: new RecordSession(pages, sessions, clock, unitOfWork),
    createTemplate: new CreateSystemTemplate(templates, clock, unitOfWork),
  };
}

describe('page group use cases (platform side)', () => {
  it('creates a draft group of an existing tenant, in a unit of work', async () => {
    const { createGroup, tenant, groups, unitOfWork } = setup();
    const view = await createGroup.execute({ tenantId: tenant.id, name: 'Spring' });
    expect(view).toMatchObject({ tenantId: tenant.id, name: 'Spring', status: 'draft', pagesCount: 0, createdAt: T0.toISOString() });
    expect(groups.rows.has(view.pageGroupId)).toBe(true);
    expect(unitOfWork.runs).toBe(1);
  });

  it('refuses a brand or a template the tenant cannot see, writing nothing', async () => {
    const { createGroup, tenant, groups } = setup();
    await expect(createGroup.execute({ tenantId: tenant.id, name: 'G', brandId: 'brand_01jdq8x0m2f3e4r5t6y7u8i9o0' })).rejects.toThrow(NotFoundError);
    await expect(createGroup.execute({ tenantId: tenant.id, name: 'G', pageTemplateId: 'pagetemplate_01jdq8x0m2f3e4r5t6y7u8i9o0' })).rejects.toThrow(NotFoundError);
    expect(groups.rows.size).toBe(0);
  });

  it('sets the status under the row lock, moving updatedAt forward', async () => {
    const { createGroup, setStatus, tenant, groups, clock } = setup();
    const { pageGroupId } = await createGroup.execute({ tenantId: tenant.id, name: 'G' });
    clock.advance(5000);
    const view = await setStatus.execute({ tenantId: tenant.id, pageGroupId, status: 'published' });
    expect(view).toMatchObject({ status: 'published', updatedAt: '2026-11-22T12:00:05.000Z' });
    expect(groups.rows.get(pageGroupId)!.status).toBe('published');
    expect(groups.locked).toEqual([pageGroupId]);
    await expect(setStatus.execute({ tenantId: tenant.id, pageGroupId, status: 'gone' as never })).rejects.toThrow(InvalidValueError);
  });

  it('soft-deletes once; the second delete is not found', async () => {
    const { createGroup, deleteGroup, tenant, groups } = setup();
    const { pageGroupId } = await createGroup.execute({ tenantId: tenant.id, name: 'G' });
    expect(await deleteGroup.execute({ tenantId: tenant.id, pageGroupId })).toEqual({ pageGroupId, deletedAt: T0.toISOString() });
    expect(groups.rows.get(pageGroupId)!.deletedAt).toEqual(T0);
    await expect(deleteGroup.execute({ tenantId: tenant.id, pageGroupId })).rejects.toThrow(NotFoundError);
  });
});

describe('RecordSession', () => {
  it("records a visit with its UTM values for the tenant's page, and nothing for another tenant's", async () => {
    const { recordSession, pages, sessions, tenant } = setup();
    const { page, firstVersion } = Page.create({ tenantId: tenant.id, pageGroupId: 'page_01jdq8x0m2f3e4r5t6y7u8i9o0', pageTemplateId: null }, T0);
    await pages.add(page, firstVersion);
    expect(await recordSession.execute({ tenantId: tenant.id, pageId: page.id, utm: { source: 'newsletter' } })).toEqual({ sessionId: sessions.rows[0].id, pageId: page.id });
    expect(sessions.rows[0]).toMatchObject({ pageId: page.id, pageGroupId: page.pageGroupId, utm: { source: 'newsletter' }, createdAt: T0 });
    await expect(recordSession.execute({ tenantId: 'tenant_01jdq8w9k1a2b3c4d5e6f7g8ha', pageId: page.id, utm: {} })).rejects.toThrow(NotFoundError);
    await expect(recordSession.execute({ tenantId: tenant.id, pageId: page.id, utm: { term: '' } })).rejects.toMatchObject({ details: { field: 'utm_term' } });
    expect(sessions.rows).toHaveLength(1);
  });
});

describe('CreateSystemTemplate', () => {
  it('writes a template every tenant sees, and refuses an empty name', async () => {
    const { createTemplate, templates } = setup();
    const view = await createTemplate.execute({ name: 'Hero', templateContent: '<main/>' });
    expect(await templates.findVisible('tenant_01jdq8w9k1a2b3c4d5e6f7g8ha', view.pageTemplateId)).not.toBeNull();
    await expect(createTemplate.execute({ name: '', templateContent: 'x' })).rejects.toMatchObject({ details: { field: 'name' } });
  });
});
