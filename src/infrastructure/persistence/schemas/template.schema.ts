import { EntitySchema } from '@mikro-orm/core';
import { Template } from '../../../domain/template/template';
import { entityClass } from './entity-class';

export const TemplateSchema = new EntitySchema<Template>({
  class: entityClass(Template),
  tableName: 'templates',
  properties: {
    id: { type: 'string', primary: true },
    tenantId: { type: 'string', nullable: true },
    sourcePageTemplateId: { type: 'string', nullable: true },
    name: { type: 'string' },
    description: { type: 'string', nullable: true },
    templateContent: { type: 'text' },
    isEditable: { type: 'boolean' },
    isSystem: { type: 'boolean' },
    version: { type: 'integer' },
    createdAt: { type: 'datetime' },
    updatedAt: { type: 'datetime', nullable: true },
  },
});
