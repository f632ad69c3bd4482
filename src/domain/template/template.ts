import { StateOf, restored } from '../shared/aggregate-root';
import { InvalidValueError } from '../shared/domain-error';
import { newTypeId } from '../shared/type-id';

export const TEMPLATE_NAME_MAX = 200;
export const TEMPLATE_CONTENT_MAX = 512 * 1024;

/**
 * A page template. System templates belong to no tenant, are visible to all and cannot be
 * edited; custom ones belong to one tenant (decisions.md, Templates). Never changed once made
 * (a duplicate is a new template), so it records no events.
 */
export class Template {
  private constructor(
    readonly id: string,
    readonly tenantId: string | null,
    readonly sourcePageTemplateId: string | null,
    readonly name: string,
    readonly description: string | null,
    readonly templateContent: string,
    readonly isEditable: boolean,
    readonly isSystem: boolean,
    readonly version: number,
    readonly createdAt: Date,
    readonly updatedAt: Date | null,
  ) {}

  /** A stored template, as the repository read it. */
  static restore(state: StateOf<Template>): Template {
    return restored(Template.prototype, state);
  }


  static createSystem(input: { name: string; templateContent: string; description?: string | null }, now: Date): Template {
    Template.checkName(input.name);
    if (input.templateContent.length < 1 || input.templateContent.length > TEMPLATE_CONTENT_MAX) {
      throw new InvalidValueError('templateContent', `must be 1 to ${TEMPLATE_CONTENT_MAX} characters`);
    }
    return new Template(newTypeId('pagetemplate', now.getTime()), null, null, input.name, input.description ?? null, input.templateContent, false, true, 1, now, null);
  }

  /** Whether `tenantId` may see (and so use or duplicate) this template. */
  isVisibleTo(tenantId: string): boolean {
    return this.isSystem || this.tenantId === tenantId;
  }

  /** The tenant's own editable copy: version 1, never updated, named `Copy of <name>` by default. */
  duplicateFor(tenantId: string, name: string | undefined, now: Date): Template {
    const copyName = name ?? `Copy of ${this.name}`.slice(0, TEMPLATE_NAME_MAX);
    Template.checkName(copyName);
    return new Template(newTypeId('pagetemplate', now.getTime()), tenantId, this.id, copyName, this.description, this.templateContent, true, false, 1, now, null);
  }

  private static checkName(name: string): void {
    if (name.length < 1 || name.length > TEMPLATE_NAME_MAX) throw new InvalidValueError('name', `must be 1 to ${TEMPLATE_NAME_MAX} characters`);
  }
}
