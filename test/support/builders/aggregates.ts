import { Brand, NewBrand } from '../../../src/domain/brand/brand';
import { Page } from '../../../src/domain/page/page';
import { NewPageGroup, PageGroup } from '../../../src/domain/page-group/page-group';

// Aggregates made through their factories, valid unless a test says otherwise: each test states
// only what it is about.

/** A brand of `tenantId`: dark, a light theme with a border colour, a home page. */
export function aBrand(tenantId: string, overrides: Partial<NewBrand> = {}, at = new Date()): Brand {
  return Brand.create(
    { tenantId, name: 'Brand', preferredAppearance: 'dark', themeLight: { borderColor: '#123' }, themeDark: {}, companyHomePage: 'https://x.example', ...overrides },
    at,
  );
}

/** A draft page group of `tenantId` named G, with no platform objects. */
export function aPageGroup(tenantId: string, overrides: Partial<NewPageGroup> = {}, at = new Date()): PageGroup {
  return PageGroup.create({ tenantId, name: 'G', ...overrides }, at);
}

/** A page of `group` without a template, and its first version (which carries the event). */
export function aPage(group: Pick<PageGroup, 'id' | 'tenantId'>, at = new Date()): ReturnType<typeof Page.create> {
  return Page.create({ tenantId: group.tenantId, pageGroupId: group.id, pageTemplateId: null }, at);
}
