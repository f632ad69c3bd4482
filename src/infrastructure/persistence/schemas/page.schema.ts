import { EntitySchema } from '@mikro-orm/core';
import { Page } from '../../../domain/page/page';
import { PageVersion } from '../../../domain/page/page-version';
import { entityClass } from './entity-class';

export const PageSchema = new EntitySchema<Page>({
  class: entityClass(Page),
  tableName: 'pages',
  properties: {
    id: { type: 'string', primary: true },
    tenantId: { type: 'string' },
    pageGroupId: { type: 'string' },
    pageTemplateId: { type: 'string', nullable: true },
    supplementaryContext: { type: 'text', nullable: true },
    createdAt: { type: 'datetime' },
    updatedAt: { type: 'datetime' },
  },
});

export const PageVersionSchema = new EntitySchema<PageVersion>({
  class: entityClass(PageVersion),
  tableName: 'page_versions',
  properties: {
    id: { type: 'string', primary: true },
    tenantId: { type: 'string' },
    pageId: { type: 'string' },
    pageGroupId: { type: 'string' },
    number: { type: 'integer' },
    createdAt: { type: 'datetime' },
  },
});
