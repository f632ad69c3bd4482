import { Template } from '../../domain/template/template';

/** Template (response) of the spec, field for field. */
export interface TemplateView {
  pageTemplateId: string;
  sourcePageTemplateId: string | null;
  name: string;
  description: string | null;
  templateContent: string;
  isEditable: boolean;
  isSystem: boolean;
  version: number;
  createdAt: string;
  updatedAt: string | null;
}

export function toTemplateView(template: Template): TemplateView {
  return {
    pageTemplateId: template.id,
    sourcePageTemplateId: template.sourcePageTemplateId,
    name: template.name,
    description: template.description,
    templateContent: template.templateContent,
    isEditable: template.isEditable,
    isSystem: template.isSystem,
    version: template.version,
    createdAt: template.createdAt.toISOString(),
    updatedAt: template.updatedAt?.toISOString() ?? null,
  };
}
