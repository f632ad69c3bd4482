import { Injectable } from '@nestjs/common';
import { Clock } from '../../domain/shared/clock.port';
import { Tenant } from '../../domain/tenant/tenant';
import { TenantRepository } from '../../domain/tenant/tenant-repository.port';
import { UnitOfWork } from '../shared/unit-of-work.port';

@Injectable()
export class CreateTenant {
  constructor(
    private readonly tenants: TenantRepository,
    private readonly clock: Clock,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  execute(input: { name: string }): Promise<{ tenantId: string; name: string }> {
    return this.unitOfWork.run(async () => {
      const tenant = Tenant.create(input.name, this.clock.now());
      await this.tenants.add(tenant);
      return { tenantId: tenant.id, name: tenant.name };
    });
  }
}
