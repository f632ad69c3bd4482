import { Injectable } from '@nestjs/common';
import { BrandRepository } from '../../domain/brand/brand-repository.port';
import { NewPageGroup, PageGroup } from '../../domain/page-group/page-group';
import { PageGroupRepository } from '../../domain/page-group/page-group-repository.port';
import { Clock } from '../../domain/shared/clock.port';
import { TemplateRepository } from '../../domain/template/template-repository.port';
import { TenantRepository } from '../../domain/tenant/tenant-repository.port';
import { PageGroupView, toPageGroupView } from './page-group.view';
import { foundOrFail } from '../shared/found-or-fail';
import { UnitOfWork } from '../shared/unit-of-work.port';

/** Platform side: sets up a page group (the API only reads them). */
@Injectable()
export class CreatePageGroup {
  constructor(
    private readonly tenants: TenantRepository,
    private readonly brands: BrandRepository,
    private readonly templates: TemplateRepository,
    private readonly groups: PageGroupRepository,
    private readonly clock: Clock,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  execute(input: NewPageGroup): Promise<PageGroupView> {
    return this.unitOfWork.run(async () => {
      await foundOrFail('tenant', 'tenant', input.tenantId, (id) => this.tenants.findById(id));
      if (input.brandId) await foundOrFail('brand', 'brand', input.brandId, (id) => this.brands.findById(input.tenantId, id));
      if (input.pageTemplateId) await foundOrFail('template', 'pagetemplate', input.pageTemplateId, (id) => this.templates.findVisible(input.tenantId, id));
      const group = PageGroup.create(input, this.clock.now());
      await this.groups.add(group);
      return toPageGroupView(group);
    });
  }
}
