import { InvalidValueError } from '../shared/domain-error';
import { newTypeId } from '../shared/type-id';
import { PageVersion } from './page-version';

export const SUPPLEMENTARY_CONTEXT_MAX = 10000;

/** A page variant in a page group (`pagevar_`). */
export class Page {
  private constructor(
    public id: string,
    public tenantId: string,
    public pageGroupId: string,
    public pageTemplateId: string | null,
    public supplementaryContext: string | null,
    public createdAt: Date,
    public updatedAt: Date,
  ) {}

  /** A new page with its version 1 (which records `page.version.created`). */
  static create(
    input: { tenantId: string; pageGroupId: string; pageTemplateId: string | null; supplementaryContext?: string },
    now: Date,
  ): { page: Page; firstVersion: PageVersion } {
    const context = input.supplementaryContext;
    if (context !== undefined && (context.length < 1 || context.length > SUPPLEMENTARY_CONTEXT_MAX)) {
      throw new InvalidValueError('supplementaryContext', `must be 1 to ${SUPPLEMENTARY_CONTEXT_MAX} characters`);
    }
    const page = new Page(newTypeId('pagevar', now.getTime()), input.tenantId, input.pageGroupId, input.pageTemplateId, context ?? null, now, now);
    return { page, firstVersion: PageVersion.first(page, now) };
  }
}
