import { Injectable } from '@nestjs/common';
import { BrandChanges } from '../../domain/brand/brand';
import { BrandRepository } from '../../domain/brand/brand-repository.port';
import { Clock } from '../../domain/shared/clock.port';
import { UnitOfWork } from '../shared/unit-of-work.port';
import { BrandView, toBrandView } from '../../domain/brand/brand.view';
import { foundOrFail } from '../shared/found-or-fail';

@Injectable()
export class UpdateBrand {
  constructor(
    private readonly brands: BrandRepository,
    private readonly clock: Clock,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /**
   * Read, merge and write under the brand's row lock: two PATCHes of different theme fields at
   * once both land (each merges into the other's result), and updatedAt still strictly increases.
   * `brand.updated` commits with the change.
   */
  execute(input: { tenantId: string; brandId: string; changes: BrandChanges }): Promise<BrandView> {
    return this.unitOfWork.run(async () => {
      const brand = await foundOrFail('brand', 'brand', input.brandId, () => this.brands.findById(input.tenantId, input.brandId, { forUpdate: true }));
      brand.update(input.changes, this.clock.now());
      await this.brands.save(brand);
      return toBrandView(brand);
    });
  }
}
