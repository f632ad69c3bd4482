import { type InferEntity, defineEntity, p } from '@mikro-orm/postgresql';
import { textKey, reference, instant, lengthCheck } from './columns';
import { TenantEntity } from './tenant.entity';

export const TemplateEntity = defineEntity({
  name: 'TemplateRow',
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
    tenant: () => reference(TenantEntity).nullable(),
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

export type TemplateRow = InferEntity<typeof TemplateEntity>;
