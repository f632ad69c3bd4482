import { Page } from '../../../../src/domain/page/page';
import { PageSession } from '../../../../src/domain/page/page-session';
import { PageVersion } from '../../../../src/domain/page/page-version';
import { InvalidValueError } from '../../../../src/domain/shared/domain-error';

const NOW = new Date('2026-11-22T12:00:00.000Z');
const base = { tenantId: 'tenant_01jdq8w9k1a2b3c4d5e6f7g8h9', pageGroupId: 'page_01jdq8w9k1a2b3c4d5e6f7g8h9', pageTemplateId: null };

describe('Page and PageVersion', () => {
  it('creates a page with version 1, which records page.version.created with what a receiver needs', () => {
    const { page, firstVersion } = Page.create({ ...base, supplementaryContext: 'ctx' }, NOW);
    expect(page.id).toMatch(/^pagevar_/);
    expect(page.supplementaryContext).toBe('ctx');
    expect(firstVersion).toMatchObject({ pageId: page.id, pageGroupId: base.pageGroupId, tenantId: base.tenantId, number: 1 });
    expect(firstVersion.id).toMatch(/^pagever_/);
    const events = firstVersion.pullEvents();
    expect(events).toEqual([
      {
        id: expect.stringMatching(/^evt_[0-9a-z]{26}$/),
        type: 'page.version.created',
        tenantId: base.tenantId,
        occurredAt: NOW,
        data: { pageVersionId: firstVersion.id, pageId: page.id, pageGroupId: base.pageGroupId, version: 1, createdAt: NOW.toISOString() },
      },
    ]);
    expect(firstVersion.pullEvents()).toEqual([]);
  });

  it('numbers later versions after the latest one, each with its own event', () => {
    const { page } = Page.create(base, NOW);
    const v4 = PageVersion.next(page, 3, NOW);
    expect(v4.number).toBe(4);
    expect(v4.peekEvents()[0].data).toMatchObject({ version: 4, pageVersionId: v4.id });
    expect(PageVersion.next(page, 4, NOW).peekEvents()[0].id).not.toBe(v4.peekEvents()[0].id);
  });

  it.each(['', 'x'.repeat(10001)])('refuses a supplementaryContext of %# length', (context) => {
    expect(() => Page.create({ ...base, supplementaryContext: context }, NOW)).toThrow(InvalidValueError);
  });

  it('keeps a null context when none is given', () => {
    expect(Page.create(base, NOW).page.supplementaryContext).toBeNull();
  });
});

describe('PageSession', () => {
  it('keeps the UTM values given and refuses empty or oversized ones', () => {
    const { page } = Page.create(base, NOW);
    expect(PageSession.record(page, { source: 'google', term: 'a b' }, NOW).utm).toEqual({ source: 'google', term: 'a b' });
    expect(() => PageSession.record(page, { medium: '' }, NOW)).toThrow(InvalidValueError);
    expect(() => PageSession.record(page, { campaign: 'x'.repeat(501) }, NOW)).toThrow(InvalidValueError);
  });
});
