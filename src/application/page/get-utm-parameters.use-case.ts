import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../domain/shared/domain-error';
import { isTypeId } from '../../domain/shared/type-id';
import { JsonText } from '../shared/json-text';
import { PageQueries } from './page.queries';
import { UtmParametersView } from './page.view';

@Injectable()
export class GetUtmParameters {
  constructor(private readonly pages: PageQueries) {}

  /** One read: the group check and the values come from the same statement. */
  async execute(input: { tenantId: string; pageGroupId: string }): Promise<JsonText<{ parameters: UtmParametersView }>> {
    const parameters = isTypeId(input.pageGroupId, 'page') ? await this.pages.utmParameters(input.tenantId, input.pageGroupId) : null;
    if (!parameters) throw new NotFoundError('page group', input.pageGroupId);
    return new JsonText(`{"parameters":${parameters.text}}`);
  }
}
