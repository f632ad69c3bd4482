import { type InferEntity, defineEntity, p } from '@mikro-orm/postgresql';
import { textKey, reference, instant, lengthCheck } from './columns';
import { PageGroupEntity } from './page-group.entity';
import { PageEntity } from './page.entity';
import { TemplateEntity } from './template.entity';
import { TenantEntity } from './tenant.entity';

export const PageVersionEntity = defineEntity({
  name: 'PageVersionRow',
  tableName: 'page_versions',
  uniques: [
    { name: 'page_versions_page_number_key', properties: ['page', 'number'] },
  ],
  checks: [
    { name: 'page_versions_number_check', expression: 'number >= 1' },
    lengthCheck('page_versions', 'supplementary_context', 1, 10000),
  ],
  properties: {
    id: textKey(),
    tenant: () => reference(TenantEntity),
    page: () => reference(PageEntity),
    pageGroup: () => reference(PageGroupEntity),
    number: p.integer(),
    createdAt: instant(),
    pageTemplate: () => reference(TemplateEntity).nullable(),
    supplementaryContext: p.text().nullable(),
  },
});

export type PageVersionRow = InferEntity<typeof PageVersionEntity>;
