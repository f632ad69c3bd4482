import { Injectable } from '@nestjs/common';
import { JsonText } from '../shared/json-text';
import { PageQueries } from './page-queries.port';
import { UtmParametersView } from './page.view';
import { foundOrFail } from '../shared/found-or-fail';

@Injectable()
export class GetUtmParameters {
  constructor(private readonly pages: PageQueries) {}

  /** One read: the group check and the values come from the same statement. */
  async execute(input: { tenantId: string; pageGroupId: string }): Promise<JsonText<{ parameters: UtmParametersView }>> {
    const parameters = await foundOrFail('page group', 'page', input.pageGroupId, () => this.pages.utmParameters(input.tenantId, input.pageGroupId));
    return new JsonText(`{"parameters":${parameters.text}}`);
  }
}
