import { Injectable } from '@nestjs/common';
import { Clock } from '../../domain/shared/clock.port';
import { TemplateRepository } from '../../domain/template/template-repository.port';
import { TemplateView, toTemplateView } from './template.view';
import { foundOrFail } from '../shared/found-or-fail';
import { UnitOfWork } from '../shared/unit-of-work.port';

@Injectable()
export class DuplicateTemplate {
  constructor(
    private readonly templates: TemplateRepository,
    private readonly clock: Clock,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** Any visible template (system or own) can be copied; another tenant's is not found. */
  execute(input: { tenantId: string; templateId: string; name?: string }): Promise<TemplateView> {
    return this.unitOfWork.runOneWrite(async () => {
      const original = await foundOrFail('template', 'pagetemplate', input.templateId, () => this.templates.findVisible(input.tenantId, input.templateId));
      const copy = original.duplicateFor(input.tenantId, input.name, this.clock.now());
      await this.templates.add(copy);
      return toTemplateView(copy);
    });
  }
}
