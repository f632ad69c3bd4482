import { EntitySchema } from '@mikro-orm/core';
import { entityClass } from './entity-class';
import { Brand } from '../../../domain/brand/brand';

// Themes are stored as JSONB in their response shape: they are read and written whole, never
// queried by field, and merge-patching happens in the aggregate.
export const BrandSchema = new EntitySchema<Brand>({
  class: entityClass(Brand),
  tableName: 'brands',
  properties: {
    id: { type: 'string', primary: true },
    tenantId: { type: 'string' },
    name: { type: 'string' },
    preferredAppearance: { type: 'string' },
    themeLight: { type: 'json' },
    themeDark: { type: 'json' },
    companyHomePage: { type: 'string', nullable: true },
    createdAt: { type: 'datetime' },
    updatedAt: { type: 'datetime' },
  },
});
