import { CreatePage } from '../../../../src/application/page/create-page.use-case';
import { CreatePageVersion } from '../../../../src/application/page/create-page-version.use-case';
import { DuplicateTemplate } from '../../../../src/application/template/duplicate-template.use-case';
import { PageGroup } from '../../../../src/domain/page-group/page-group';
import { ConcurrentChangeError, InvalidValueError, NotFoundError } from '../../../../src/domain/shared/domain-error';
import { Template } from '../../../../src/domain/template/template';
import { FixedClock } from '../../../support/fakes/fixed-clock';
import { ImmediateUnitOfWork } from '../../../support/fakes/immediate-unit-of-work';
import { InMemoryGroupQueries, InMemoryGroups, InMemoryPages, InMemoryTemplates, InMemoryVersions } from '../../../support/fakes/in-memory-pages';

const TENANT = 'tenant_01jdq8w9k1a2b3c4d5e6f7g8h9';
const OTHER = 'tenant_01jdq8w9k1a2b3c4d5e6f7g8ha';

function setup() {
  const clock = new FixedClock(new Date('2026-11-22T12:00:00.000Z'));
  const groups = new InMemoryGroups();
  const templates = new InMemoryTemplates();
  const pages = new InMemoryPages();
  const versions = new InMemoryVersions(pages);
  const system = Template.createSystem({ name: 'S', templateContent: 'c' }, clock.now());
  const foreign = system.duplicateFor(OTHER, undefined, clock.now());
  void templates.add(system);
  void templates.add(foreign);
  const group = PageGroup.create({ tenantId: TENANT, name: 'G', pageTemplateId: system.id }, clock.now());
  void groups.save(group);
  return {
    clock, groups, templates, pages, versions, system, foreign, group,
    createPage: new CreatePage(groups, templates, pages, clock, new ImmediateUnitOfWork()),
    createVersion: new CreatePageVersion(pages, versions, templates, new InMemoryGroupQueries(groups), new ImmediateUnitOfWork(), clock),
    duplicate: new DuplicateTemplate(templates, clock, new ImmediateUnitOfWork()),
  };
}

describe('CreatePage', () => {
  it('defaults the template to the group’s and writes version 1 with its event', async () => {
    const { createPage, group, system, pages } = setup();
    const view = await createPage.execute({ tenantId: TENANT, pageGroupId: group.id });
    expect(view).toMatchObject({ pageGroupId: group.id, pageTemplateId: system.id, supplementaryContext: null, createdAt: '2026-11-22T12:00:00.000Z' });
    expect(pages.versions.map((v) => v.number)).toEqual([1]);
    expect(pages.outbox.map((e) => e.type)).toEqual(['page.version.created']);
  });

  it('refuses another tenant’s template as a 400 on pageTemplateId, saving nothing', async () => {
    const { createPage, group, foreign, pages } = setup();
    await expect(createPage.execute({ tenantId: TENANT, pageGroupId: group.id, pageTemplateId: foreign.id })).rejects.toThrow(
      expect.objectContaining({ details: { field: 'pageTemplateId', reason: expect.any(String) } }),
    );
    await expect(createPage.execute({ tenantId: TENANT, pageGroupId: group.id, pageTemplateId: 'nope' })).rejects.toThrow(InvalidValueError);
    expect(pages.pages.size).toBe(0);
  });

  it('treats a deleted or foreign group as not found', async () => {
    const { createPage, group, groups, clock } = setup();
    await expect(createPage.execute({ tenantId: OTHER, pageGroupId: group.id })).rejects.toThrow(NotFoundError);
    group.softDelete(clock.now());
    await groups.save(group);
    await expect(createPage.execute({ tenantId: TENANT, pageGroupId: group.id })).rejects.toThrow(NotFoundError);
  });
});

describe('CreatePageVersion', () => {
  it('numbers versions 2, 3… after the first', async () => {
    const { createPage, createVersion, group } = setup();
    const page = await createPage.execute({ tenantId: TENANT, pageGroupId: group.id });
    expect((await createVersion.execute({ tenantId: TENANT, pageId: page.pageId })).number).toBe(2);
    expect((await createVersion.execute({ tenantId: TENANT, pageId: page.pageId })).number).toBe(3);
  });

  it('retries with the new latest number after losing a race', async () => {
    const { createPage, createVersion, versions, group, pages } = setup();
    const page = await createPage.execute({ tenantId: TENANT, pageGroupId: group.id });
    versions.conflicts = 2;
    const result = await createVersion.execute({ tenantId: TENANT, pageId: page.pageId });
    expect(result.number).toBe(4);
    expect(pages.versions.map((v) => v.number)).toEqual([1, 2, 3, 4]);
  });

  it('gives up after five lost races', async () => {
    const { createPage, createVersion, versions, group } = setup();
    const page = await createPage.execute({ tenantId: TENANT, pageGroupId: group.id });
    versions.conflicts = 5;
    await expect(createVersion.execute({ tenantId: TENANT, pageId: page.pageId })).rejects.toThrow(ConcurrentChangeError);
  });

  it('carries absent fields over from the current version, changes given ones, and clears with null', async () => {
    const { createPage, createVersion, group, system, templates, clock, pages } = setup();
    const custom = system.duplicateFor(TENANT, 'Mine', clock.now());
    await templates.add(custom);
    const page = await createPage.execute({ tenantId: TENANT, pageGroupId: group.id, supplementaryContext: 'first' });
    expect(await createVersion.execute({ tenantId: TENANT, pageId: page.pageId })).toMatchObject({ number: 2, pageTemplateId: system.id, supplementaryContext: 'first' });
    expect(await createVersion.execute({ tenantId: TENANT, pageId: page.pageId, pageTemplateId: custom.id })).toMatchObject({ number: 3, pageTemplateId: custom.id, supplementaryContext: 'first' });
    expect(await createVersion.execute({ tenantId: TENANT, pageId: page.pageId, supplementaryContext: null })).toMatchObject({ number: 4, pageTemplateId: custom.id, supplementaryContext: null });
    expect(pages.pages.get(page.pageId)).toMatchObject({ pageTemplateId: custom.id, supplementaryContext: null });
    expect(pages.outbox.map((e) => (e.data as { version: number }).version)).toEqual([1, 2, 3, 4]);
  });

  it('refuses another tenant’s template and an empty context as 400s, writing nothing', async () => {
    const { createPage, createVersion, group, foreign, pages } = setup();
    const page = await createPage.execute({ tenantId: TENANT, pageGroupId: group.id });
    await expect(createVersion.execute({ tenantId: TENANT, pageId: page.pageId, pageTemplateId: foreign.id })).rejects.toThrow(
      expect.objectContaining({ details: { field: 'pageTemplateId', reason: expect.any(String) } }),
    );
    await expect(createVersion.execute({ tenantId: TENANT, pageId: page.pageId, supplementaryContext: '' })).rejects.toThrow(
      expect.objectContaining({ details: { field: 'supplementaryContext', reason: expect.any(String) } }),
    );
    expect(pages.versions.map((v) => v.number)).toEqual([1]);
  });

  it('finds the page only in its own live group when a group is given', async () => {
    const { createPage, createVersion, group, groups, clock } = setup();
    const page = await createPage.execute({ tenantId: TENANT, pageGroupId: group.id });
    const other = PageGroup.create({ tenantId: TENANT, name: 'Other' }, clock.now());
    await groups.add(other);
    await expect(createVersion.execute({ tenantId: TENANT, pageGroupId: other.id, pageId: page.pageId })).rejects.toThrow(NotFoundError);
    group.softDelete(clock.now());
    await groups.save(group);
    await expect(createVersion.execute({ tenantId: TENANT, pageGroupId: group.id, pageId: page.pageId })).rejects.toThrow(NotFoundError);
  });

  it('does not find another tenant’s page', async () => {
    const { createPage, createVersion, group } = setup();
    const page = await createPage.execute({ tenantId: TENANT, pageGroupId: group.id });
    await expect(createVersion.execute({ tenantId: OTHER, pageId: page.pageId })).rejects.toThrow(NotFoundError);
  });
});

describe('DuplicateTemplate', () => {
  it('copies a visible template and refuses another tenant’s', async () => {
    const { duplicate, system, foreign, templates } = setup();
    const copy = await duplicate.execute({ tenantId: TENANT, templateId: system.id });
    expect(copy).toMatchObject({ sourcePageTemplateId: system.id, name: 'Copy of S', isSystem: false });
    expect(templates.rows.get(copy.pageTemplateId)?.tenantId).toBe(TENANT);
    await expect(duplicate.execute({ tenantId: TENANT, templateId: foreign.id })).rejects.toThrow(NotFoundError);
  });
});
