import type { Theme } from '../../../domain/brand/theme';
import { defineEntity, p } from '@mikro-orm/postgresql';
import { textKey, reference, instant, lengthCheck } from './columns';
import { TenantRow } from './tenant.entity';

export class BrandRow {
  id!: string;
  tenant!: TenantRow;
  name!: string;
  preferredAppearance!: BrandPreferredAppearance;
  themeLight!: Theme;
  themeDark!: Theme;
  companyHomePage: string | null = null;
  createdAt!: Date;
  updatedAt!: Date;
  viewJson!: string;
}

export const BrandPreferredAppearanceValues = {
  SYSTEM: 'system',
  LIGHT: 'light',
  DARK: 'dark',
} as const;

export type BrandPreferredAppearance = (typeof BrandPreferredAppearanceValues)[keyof typeof BrandPreferredAppearanceValues];

export const BrandEntity = defineEntity({
  class: BrandRow,
  tableName: 'brands',
  indexes: [{ name: 'brands_tenant_id_id_idx', properties: ['tenant', 'id'] }],
  checks: [
    lengthCheck('brands', 'name', 1, 200),
  ],
  properties: {
    id: textKey(),
    tenant: () => reference(TenantRow),
    name: p.text(),
    preferredAppearance: p.enum(() => BrandPreferredAppearanceValues),
    themeLight: p.json().columnType('json').$type<Theme>(),
    themeDark: p.json().columnType('json').$type<Theme>(),
    companyHomePage: p.text().nullable(),
    createdAt: instant(),
    updatedAt: instant(),
    viewJson: p.text(),
  },
});
