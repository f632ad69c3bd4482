import { EntitySchema } from '@mikro-orm/core';
import { entityClass } from './entity-class';
import { Brand } from '../../../domain/brand/brand';

// Themes are stored as json (not jsonb) in their response shape: they are read and written whole,
// never queried by field, and merge-patching happens in the aggregate (Migration...050000).
export const BrandSchema = new EntitySchema<Brand>({
  class: entityClass(Brand),
  tableName: 'brands',
  properties: {
    id: { type: 'string', primary: true },
    tenantId: { type: 'string' },
    name: { type: 'string' },
    preferredAppearance: { type: 'string' },
    themeLight: { type: 'json', columnType: 'json' },
    themeDark: { type: 'json', columnType: 'json' },
    companyHomePage: { type: 'string', nullable: true },
    createdAt: { type: 'datetime' },
    updatedAt: { type: 'datetime' },
  },
});
