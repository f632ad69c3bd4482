import { PAGE_GROUP_STATUSES } from '../../../domain/page-group/page-group';
import type { PlatformObject } from '../../../domain/page-group/page-group';
import { type InferEntity, defineEntity, p } from '@mikro-orm/postgresql';
import { textKey, reference, instant, lengthCheck } from './columns';
import { BrandEntity } from './brand.entity';
import { TemplateEntity } from './template.entity';
import { TenantEntity } from './tenant.entity';

export const PageGroupEntity = defineEntity({
  name: 'PageGroupRow',
  tableName: 'page_groups',
  indexes: [
    {
      name: 'page_groups_live_idx',
      where: 'deleted_at IS NULL',
      properties: ['tenant', 'id'],
    },
    {
      name: 'page_groups_live_status_idx',
      where: 'deleted_at IS NULL',
      properties: ['tenant', 'status', 'id'],
    },
  ],
  checks: [
    lengthCheck('page_groups', 'name', 1, 200),
  ],
  properties: {
    id: textKey(),
    tenant: () => reference(TenantEntity),
    brand: () => reference(BrandEntity).nullable(),
    name: p.text(),
    title: p.text().nullable(),
    pageContext: p.text().nullable(),
    pageTemplate: () => reference(TemplateEntity).nullable(),
    headerActionId: p.text().nullable(),
    status: p.enum(PAGE_GROUP_STATUSES),
    actions: p.json().columnType('json').$type<PlatformObject[]>().default('[]'),
    footerLinks: p.json().columnType('json').$type<PlatformObject[]>().default('[]'),
    scripts: p.json().columnType('json').$type<PlatformObject[]>().default('[]'),
    createdAt: instant(),
    updatedAt: instant(),
    deletedAt: instant().nullable(),
    viewHead: p.text(),
    viewTail: p.text(),
  },
});

export type PageGroupRow = InferEntity<typeof PageGroupEntity>;
