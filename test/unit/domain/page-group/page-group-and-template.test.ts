import { PageGroup } from '../../../../src/domain/page-group/page-group';
import { InvalidValueError } from '../../../../src/domain/shared/domain-error';
import { Template } from '../../../../src/domain/template/template';

const T0 = new Date('2026-11-22T12:00:00.000Z');
const T1 = new Date('2026-11-22T13:00:00.000Z');
const TENANT = 'tenant_01jdq8w9k1a2b3c4d5e6f7g8h9';

describe('PageGroup', () => {
  it('starts as a draft with no pages and empty platform arrays', () => {
    const group = PageGroup.create({ tenantId: TENANT, name: 'G' }, T0);
    expect(group).toMatchObject({ status: 'draft', pagesCount: 0, actions: [], footerLinks: [], scripts: [], deletedAt: null, title: null });
    expect(group.id).toMatch(/^page_/);
  });

  it('changes status and soft-deletes, moving updatedAt; deleting twice keeps the first time', () => {
    const group = PageGroup.create({ tenantId: TENANT, name: 'G' }, T0);
    group.setStatus('archived', T1);
    expect(group.status).toBe('archived');
    expect(group.updatedAt).toEqual(T1);
    group.softDelete(T1);
    const deletedAt = group.deletedAt;
    group.softDelete(new Date('2027-01-01'));
    expect(group.deletedAt).toBe(deletedAt);
    expect(group.isDeleted()).toBe(true);
  });

  it.each([
    [{ name: '' }, 'name'],
    [{ status: 'live' as never }, 'status'],
    [{ actions: [1] as never }, 'actions'],
    [{ scripts: [[]] as never }, 'scripts'],
  ])('refuses %j naming %s', (input, field) => {
    expect(() => PageGroup.create({ tenantId: TENANT, name: 'G', ...input }, T0)).toThrow(expect.objectContaining({ details: expect.objectContaining({ field }) }));
  });
});

describe('Template', () => {
  const system = () => Template.createSystem({ name: 'Lead capture', templateContent: '<p/>', description: 'd' }, T0);

  it('is a system template visible to every tenant and editable by none', () => {
    const template = system();
    expect(template).toMatchObject({ tenantId: null, isSystem: true, isEditable: false, version: 1, updatedAt: null, sourcePageTemplateId: null });
    expect(template.isVisibleTo(TENANT)).toBe(true);
  });

  it('duplicates into the tenant’s own editable copy', () => {
    const original = system();
    const copy = original.duplicateFor(TENANT, undefined, T1);
    expect(copy).toMatchObject({
      tenantId: TENANT, sourcePageTemplateId: original.id, name: 'Copy of Lead capture', description: 'd',
      templateContent: '<p/>', isEditable: true, isSystem: false, version: 1, createdAt: T1, updatedAt: null,
    });
    expect(copy.id).not.toBe(original.id);
    expect(copy.isVisibleTo(TENANT)).toBe(true);
    expect(copy.isVisibleTo('tenant_01jdq8w9k1a2b3c4d5e6f7g8ha')).toBe(false);
    expect(original.duplicateFor(TENANT, 'Named', T1).name).toBe('Named');
  });

  it('keeps a default copy name within 200 characters', () => {
    const long = Template.createSystem({ name: 'x'.repeat(200), templateContent: 'c' }, T0);
    expect(long.duplicateFor(TENANT, undefined, T1).name).toHaveLength(200);
    expect(() => long.duplicateFor(TENANT, '', T1)).toThrow(InvalidValueError);
  });
});
