import { APPEARANCES } from '../../../domain/brand/brand.state';
import type { Theme } from '../../../domain/brand/theme';
import { type InferEntity, defineEntity, p } from '@mikro-orm/postgresql';
import { textKey, reference, instant, lengthCheck } from './columns';
import { TenantEntity } from './tenant.entity';

export const BrandEntity = defineEntity({
  name: 'BrandRow',
  tableName: 'brands',
  indexes: [{ name: 'brands_tenant_id_id_idx', properties: ['tenant', 'id'] }],
  checks: [
    lengthCheck('brands', 'name', 1, 200),
  ],
  properties: {
    id: textKey(),
    tenant: () => reference(TenantEntity),
    name: p.text(),
    preferredAppearance: p.enum(APPEARANCES),
    themeLight: p.json().columnType('json').$type<Theme>(),
    themeDark: p.json().columnType('json').$type<Theme>(),
    companyHomePage: p.text().nullable(),
    createdAt: instant(),
    updatedAt: instant(),
    viewJson: p.text(),
  },
});

export type BrandRow = InferEntity<typeof BrandEntity>;
