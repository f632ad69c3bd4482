import type { Theme } from '../../../domain/brand/theme';
import { defineEntity, p } from '@mikro-orm/postgresql';
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
    {
      name: 'brands_name_check',
      expression: '(char_length(name) >= 1) AND (char_length(name) <= 200)',
    },
  ],
  properties: {
    id: p.text().primary().collation('C'),
    tenant: () => p.manyToOne(TenantRow).updateRule('no action').deleteRule('no action').collation('C'),
    name: p.text(),
    preferredAppearance: p.enum(() => BrandPreferredAppearanceValues),
    themeLight: p.json().columnType('json').$type<Theme>(),
    themeDark: p.json().columnType('json').$type<Theme>(),
    companyHomePage: p.text().nullable(),
    createdAt: p.datetime().length(3),
    updatedAt: p.datetime().length(3),
    viewJson: p.text(),
  },
});
