import { Injectable } from '@nestjs/common';
import { Page, PageRequest } from '../shared/pagination';
import { TemplateQueries, TemplateType } from './template.queries';
import { TemplateView } from './template.view';

@Injectable()
export class ListTemplates {
  constructor(private readonly templates: TemplateQueries) {}

  execute(input: { tenantId: string; type?: TemplateType } & PageRequest): Promise<Page<TemplateView>> {
    return this.templates.list(input.tenantId, { type: input.type }, { limit: input.limit, after: input.after });
  }
}
