import { Injectable } from '@nestjs/common';
import { BrandRepository } from '../../domain/brand/brand.repository';
import { NewPageGroup, PageGroup } from '../../domain/page-group/page-group';
import { PageGroupRepository } from '../../domain/page-group/page-group.repository';
import { Clock } from '../../domain/shared/clock';
import { NotFoundError } from '../../domain/shared/domain-error';
import { isTypeId } from '../../domain/shared/type-id';
import { TemplateRepository } from '../../domain/template/template.repository';
import { TenantRepository } from '../../domain/tenant/tenant.repository';
import { PageGroupView, toPageGroupView } from './page-group.view';

/** Platform side: sets up a page group (the API only reads them). */
@Injectable()
export class CreatePageGroup {
  constructor(
    private readonly tenants: TenantRepository,
    private readonly brands: BrandRepository,
    private readonly templates: TemplateRepository,
    private readonly groups: PageGroupRepository,
    private readonly clock: Clock,
  ) {}

  async execute(input: NewPageGroup): Promise<PageGroupView> {
    if (!isTypeId(input.tenantId, 'tenant') || !(await this.tenants.findById(input.tenantId))) throw new NotFoundError('tenant', input.tenantId);
    if (input.brandId && !(isTypeId(input.brandId, 'brand') && (await this.brands.findById(input.tenantId, input.brandId)))) {
      throw new NotFoundError('brand', input.brandId);
    }
    if (input.pageTemplateId && !(isTypeId(input.pageTemplateId, 'pagetemplate') && (await this.templates.findVisible(input.tenantId, input.pageTemplateId)))) {
      throw new NotFoundError('template', input.pageTemplateId);
    }
    const group = PageGroup.create(input, this.clock.now());
    await this.groups.save(group);
    return toPageGroupView(group);
  }
}
