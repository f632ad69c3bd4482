import { Template } from '../../../domain/template/template';

/** A templates row as node-postgres returns it. */
export interface TemplateRow {
  id: string;
  tenant_id: string | null;
  source_page_template_id: string | null;
  name: string;
  description: string | null;
  template_content: string;
  is_editable: boolean;
  is_system: boolean;
  version: number;
  created_at: Date;
  updated_at: Date | null;
}

export const COLUMNS = 'id, tenant_id, source_page_template_id, name, description, template_content, is_editable, is_system, version, created_at, updated_at';

/** The Template aggregate of a row. */
export function toTemplate(row: TemplateRow): Template {
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
