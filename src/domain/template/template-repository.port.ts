import { Template } from './template';

export abstract class TemplateRepository {
  /** Null unless the template is a system one or the tenant's own. */
  abstract findVisible(tenantId: string, id: string): Promise<Template | null>;
  /** Null when no system template has this id. */
  abstract findSystem(id: string): Promise<Template | null>;
  /** Inserts a new template: templates are never changed once written. */
  abstract add(template: Template): Promise<void>;
}
