import { Injectable } from '@nestjs/common';
import { TemplateRepository } from '../../domain/template/template-repository.port';
import { TemplateView, toTemplateView } from './template.view';
import { foundOrFail } from '../shared/found-or-fail';

@Injectable()
export class GetTemplate {
  constructor(private readonly templates: TemplateRepository) {}

  /** A system template or one of the tenant's; NotFoundError for another tenant's or a malformed id. */
  async execute(input: { tenantId: string; templateId: string }): Promise<TemplateView> {
    const template = await foundOrFail('template', 'pagetemplate', input.templateId, () => this.templates.findVisible(input.tenantId, input.templateId));
    return toTemplateView(template);
  }
}
