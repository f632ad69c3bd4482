import { EntitySchema } from '@mikro-orm/core';
import { PageGroup } from '../../../domain/page-group/page-group';
import { pagesCountOf } from '../sql';
import { entityClass } from './entity-class';

export const PageGroupSchema = new EntitySchema<PageGroup>({
  class: entityClass(PageGroup),
  tableName: 'page_groups',
  properties: {
    id: { type: 'string', primary: true },
    tenantId: { type: 'string' },
    brandId: { type: 'string', nullable: true },
    name: { type: 'string' },
    title: { type: 'string', nullable: true },
    pageContext: { type: 'text', nullable: true },
    pageTemplateId: { type: 'string', nullable: true },
    headerActionId: { type: 'string', nullable: true },
    status: { type: 'string' },
    // Kept by the database in the group's counter rows (one incremented in the transaction that
    // adds a page; Migration...20261123000000): read with the group, never written by the ORM.
    pagesCount: {
      type: 'integer',
      formula: (columns) => pagesCountOf(String(columns.id)),
    },
    actions: { type: 'json' },
    footerLinks: { type: 'json' },
    scripts: { type: 'json' },
    createdAt: { type: 'datetime' },
    updatedAt: { type: 'datetime' },
    deletedAt: { type: 'datetime', nullable: true },
  },
});
