import { Template } from '../../../domain/template/template';
import type { StoredColumns } from '../typed/statement';

/** The columns a template is restored from. */
export const TEMPLATE_COLUMNS = [
  'id', 'tenant_id', 'source_page_template_id', 'name', 'description', 'template_content', 'is_editable', 'is_system', 'version', 'created_at', 'updated_at',
] as const;

/** A templates row as a statement selecting TEMPLATE_COLUMNS gives it, typed from the entity. */
export type TemplateRecord = StoredColumns<'templates', (typeof TEMPLATE_COLUMNS)[number]>;

/** The Template aggregate of a row. */
export function toTemplate(row: TemplateRecord): Template {
  return Template.restore({
    id: row.id,
    tenantId: row.tenant_id,
    sourcePageTemplateId: row.source_page_template_id,
    name: row.name,
    description: row.description,
    templateContent: row.template_content,
    isEditable: row.is_editable,
    isSystem: row.is_system,
    version: row.version,
    createdAt: new Date(row.created_at),
    updatedAt: row.updated_at === null ? null : new Date(row.updated_at),
  });
}
