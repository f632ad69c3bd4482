import { Injectable } from '@nestjs/common';
import { Clock } from '../../domain/shared/clock.port';
import { Template } from '../../domain/template/template';
import { TemplateRepository } from '../../domain/template/template-repository.port';
import { TemplateView, toTemplateView } from './template.view';
import { UnitOfWork } from '../shared/unit-of-work.port';

/** Platform side: a template every tenant can see. */
@Injectable()
export class CreateSystemTemplate {
  constructor(
    private readonly templates: TemplateRepository,
    private readonly clock: Clock,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  execute(input: { name: string; templateContent: string; description?: string }): Promise<TemplateView> {
    return this.unitOfWork.runOneWrite(async () => {
      const template = Template.createSystem(input, this.clock.now());
      await this.templates.add(template);
      return toTemplateView(template);
    });
  }
}
