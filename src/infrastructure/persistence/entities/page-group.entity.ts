import type { PlatformObject } from '../../../domain/page-group/page-group';
import { type Opt, defineEntity, p } from '@mikro-orm/postgresql';
import { textKey, reference, instant, lengthCheck } from './columns';
import { BrandRow } from './brand.entity';
import { TemplateRow } from './template.entity';
import { TenantRow } from './tenant.entity';

export class PageGroupRow {
  id!: string;
  tenant!: TenantRow;
  brand: BrandRow | null = null;
  name!: string;
  title: string | null = null;
  pageContext: string | null = null;
  pageTemplate: TemplateRow | null = null;
  headerActionId: string | null = null;
  status!: PageGroupStatus;
  actions: any & Opt = '[]';
  footerLinks: any & Opt = '[]';
  scripts: any & Opt = '[]';
  createdAt!: Date;
  updatedAt!: Date;
  deletedAt: Date | null = null;
  viewHead!: string;
  viewTail!: string;
}

export const PageGroupStatusValues = {
  DRAFT: 'draft',
  PUBLISHED: 'published',
  ARCHIVED: 'archived',
} as const;

export type PageGroupStatus = (typeof PageGroupStatusValues)[keyof typeof PageGroupStatusValues];

export const PageGroupEntity = defineEntity({
  class: PageGroupRow,
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
    tenant: () => reference(TenantRow),
    brand: () => reference(BrandRow).nullable(),
    name: p.text(),
    title: p.text().nullable(),
    pageContext: p.text().nullable(),
    pageTemplate: () => reference(TemplateRow).nullable(),
    headerActionId: p.text().nullable(),
    status: p.enum(() => PageGroupStatusValues),
    actions: p.json().columnType('json').$type<PlatformObject[]>(),
    footerLinks: p.json().columnType('json').$type<PlatformObject[]>(),
    scripts: p.json().columnType('json').$type<PlatformObject[]>(),
    createdAt: instant(),
    updatedAt: instant(),
    deletedAt: instant().nullable(),
    viewHead: p.text(),
    viewTail: p.text(),
  },
});
