import { Injectable } from '@nestjs/common';
import { ListSlice, ListRequest } from '../shared/pagination';
import { TemplateQueries, TemplateType } from './template-queries.port';
import { TemplateView } from './template.view';

@Injectable()
export class ListTemplates {
  constructor(private readonly templates: TemplateQueries) {}

  execute(input: { tenantId: string; type?: TemplateType } & ListRequest): Promise<ListSlice<TemplateView>> {
    return this.templates.list(input.tenantId, { type: input.type }, { limit: input.limit, after: input.after });
  }
}
