import { defineEntity, p } from '@mikro-orm/postgresql';
import { textKey, reference, instant, lengthCheck } from './columns';
import { TenantRow } from './tenant.entity';

export class TemplateRow {
  id!: string;
  tenant: TenantRow | null = null;
  sourcePageTemplateId: string | null = null;
  name!: string;
  description: string | null = null;
  templateContent!: string;
  isEditable!: boolean;
  isSystem!: boolean;
  version!: number;
  createdAt!: Date;
  updatedAt: Date | null = null;
}

export const TemplateEntity = defineEntity({
  class: TemplateRow,
  tableName: 'templates',
  indexes: [
    { name: 'templates_tenant_id_id_idx', properties: ['tenant', 'id'] },
  ],
  checks: [
    { name: 'templates_check', expression: 'is_system = (tenant_id IS NULL)' },
    lengthCheck('templates', 'name', 1, 200),
  ],
  properties: {
    id: textKey(),
    tenant: () => reference(TenantRow).nullable(),
    sourcePageTemplateId: p.text().nullable().collation('C'),
    name: p.text(),
    description: p.text().nullable(),
    templateContent: p.text(),
    isEditable: p.boolean(),
    isSystem: p.boolean(),
    version: p.integer(),
    createdAt: instant(),
    updatedAt: instant().nullable(),
  },
});
