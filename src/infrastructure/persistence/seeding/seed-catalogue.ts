import { EntityManager } from '@mikro-orm/postgresql';
import { Brand } from '../../../domain/brand/brand';
import { EMPTY_THEME } from '../../../domain/brand/theme';
import { PAGE_GROUP_STATUSES, PageGroup } from '../../../domain/page-group/page-group';
import { newTypeId } from '../../../domain/shared/type-id';
import { sqlQuery } from '../connection/sql-statement';
import { storedBrandView, storedPageGroupView } from '../stored/stored-views';
import { SeedBatches, pick } from './seed-batches';

// SQL text (decisions.md 184): the bench's brands, template, page groups and pages, a batch per
// `unnest` statement. Brands and page groups are made as aggregates, so that each row's stored
// view is the one the API's writers store.

/** A seeded page: what the sessions and deliveries steps need of it. */
export interface SeededPage {
  id: string;
  tenantId: string;
  groupId: string;
}

/** The first brands made (at most 1,000): the sample's and the deliveries' subjects. */
export async function seedBrands(em: EntityManager, tenants: string[], count: number, now: Date, batches: SeedBatches): Promise<string[]> {
  const theme = { ...EMPTY_THEME, pageBackgroundColor: '#ffffff', pageForegroundColor: '#111827', buttonBackgroundColor: '#4f46e5' };
  const brandIds: string[] = [];
  await batches('brands', count, async (from, to) => {
    const brands = Array.from({ length: to - from }, (_, i) =>
      Brand.restore({
        id: newTypeId('brand'), tenantId: pick(tenants, from + i), name: `Brand ${from + i + 1}`, preferredAppearance: 'system',
        themeLight: theme, themeDark: theme, companyHomePage: `https://brand.example/${from + i + 1}`, createdAt: now, updatedAt: now,
      }),
    );
    brandIds.push(...brands.slice(0, Math.max(0, 1000 - brandIds.length)).map((b) => b.id));
    await sqlQuery(em,
      `INSERT INTO brands (id, tenant_id, name, preferred_appearance, theme_light, theme_dark, company_home_page, created_at, updated_at, view_json)
       SELECT id, tenant_id, name, 'system', $5::json, $5::json, home, $6, $6, view_json
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $7::text[]) AS b(id, tenant_id, name, home, view_json)`,
      [brands.map((b) => b.id), brands.map((b) => b.tenantId), brands.map((b) => b.name), brands.map((b) => b.companyHomePage), JSON.stringify(theme), now, brands.map(storedBrandView)],
    );
  });
  return brandIds;
}

export async function seedTemplate(em: EntityManager, now: Date): Promise<string> {
  const templateId = newTypeId('pagetemplate');
  await sqlQuery(em,
    `INSERT INTO templates (id, name, description, template_content, is_editable, is_system, version, created_at)
     VALUES ($1, 'Bench template', 'For benchmarks', '<main>{{hero}}</main>', false, true, 1, $2)`,
    [templateId, now],
  );
  return templateId;
}

/** Page groups spread over the tenants and through the three statuses, all of one template. */
export async function seedPageGroups(em: EntityManager, tenants: string[], count: number, templateId: string, now: Date, batches: SeedBatches): Promise<PageGroup[]> {
  const actions = [{ type: 'link', label: 'Go' }];
  const groups = Array.from({ length: count }, (_, i) =>
    PageGroup.restore({
      id: newTypeId('page'), tenantId: pick(tenants, i), brandId: null, name: `Group ${i + 1}`, title: null, pageContext: null,
      pageTemplateId: templateId, headerActionId: null, status: PAGE_GROUP_STATUSES[(i + 1) % 3], pagesCount: 0,
      actions, footerLinks: [], scripts: [], createdAt: now, updatedAt: now, deletedAt: null,
    }),
  );
  await batches('page groups', groups.length, async (from, to) => {
    const slice = groups.slice(from, to);
    const views = slice.map(storedPageGroupView);
    await sqlQuery(em,
      `INSERT INTO page_groups (id, tenant_id, name, status, page_template_id, actions, created_at, updated_at, view_head, view_tail)
       SELECT id, tenant_id, name, status, $5, $6::json, $7, $7, view_head, view_tail
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $8::text[], $9::text[]) AS g(id, tenant_id, name, status, view_head, view_tail)`,
      [slice.map((g) => g.id), slice.map((g) => g.tenantId), slice.map((g) => g.name), slice.map((g) => g.status), templateId,
        JSON.stringify(actions), now, views.map((v) => v.head), views.map((v) => v.tail)],
    );
  });
  return groups;
}

/** `perGroup` pages in every group, each with its first version, and the groups' page counters. */
export async function seedPages(em: EntityManager, groups: PageGroup[], perGroup: number, templateId: string, now: Date, batches: SeedBatches): Promise<SeededPage[]> {
  const pages = groups.flatMap((group) =>
    Array.from({ length: perGroup }, () => ({ id: newTypeId('pagevar'), tenantId: group.tenantId, groupId: group.id })),
  );
  await batches('pages', pages.length, async (from, to) => {
    const slice = pages.slice(from, to);
    const [ids, owners, groupIds] = [slice.map((p) => p.id), slice.map((p) => p.tenantId), slice.map((p) => p.groupId)];
    await sqlQuery(em,
      `INSERT INTO pages (id, tenant_id, page_group_id, page_template_id, created_at, updated_at)
       SELECT id, tenant_id, group_id, $4, $5, $5 FROM unnest($1::text[], $2::text[], $3::text[]) AS p(id, tenant_id, group_id)`,
      [ids, owners, groupIds, templateId, now],
    );
    await sqlQuery(em,
      `INSERT INTO page_versions (id, tenant_id, page_id, page_group_id, number, created_at)
       SELECT id, tenant_id, page_id, group_id, 1, $5 FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS v(id, tenant_id, page_id, group_id)`,
      [slice.map(() => newTypeId('pagever')), owners, ids, groupIds, now],
    );
  });
  await sqlQuery(em, 'UPDATE page_group_counters SET pages_count = $2 WHERE page_group_id = ANY($1::text[]) AND shard = 0', [groups.map((g) => g.id), perGroup]);
  return pages;
}
