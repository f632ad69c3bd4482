import { type InferEntity, defineEntity, p } from '@mikro-orm/postgresql';
import { textKey, reference, instant, lengthCheck } from './columns';
import { PageGroupEntity } from './page-group.entity';
import { TemplateEntity } from './template.entity';
import { TenantEntity } from './tenant.entity';

export const PageEntity = defineEntity({
  name: 'PageRow',
  tableName: 'pages',
  indexes: [{ name: 'pages_group_id_idx', properties: ['pageGroup', 'id'] }],
  checks: [
    lengthCheck('pages', 'supplementary_context', 1, 10000),
  ],
  properties: {
    id: textKey(),
    tenant: () => reference(TenantEntity),
    pageGroup: () => reference(PageGroupEntity),
    pageTemplate: () => reference(TemplateEntity).nullable(),
    supplementaryContext: p.text().nullable(),
    createdAt: instant(),
    updatedAt: instant(),
  },
});

export type PageRow = InferEntity<typeof PageEntity>;
