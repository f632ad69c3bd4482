import { Injectable } from '@nestjs/common';
import { BrandChanges } from '../../domain/brand/brand';
import { BrandRepository } from '../../domain/brand/brand-repository.port';
import { Clock } from '../../domain/shared/clock.port';
import { UnitOfWork } from '../shared/unit-of-work.port';
import { BrandView, toBrandView } from '../../domain/brand/brand.view';
import { foundOrFail } from '../shared/found-or-fail';

interface UpdateBrandInput {
  tenantId: string;
  brandId: string;
  changes: BrandChanges;
}

@Injectable()
export class UpdateBrand {
  constructor(
    private readonly brands: BrandRepository,
    private readonly clock: Clock,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /**
   * Read, merge and write so that two PATCHes of different theme fields at once both land (each
   * merges into the other's result) and updatedAt strictly increases; `brand.updated` commits
   * with the change. First optimistically: a plain read and one statement that writes only if
   * the brand is still as read, two round trips and no lock held between them. When another
   * write came between, again under the brand's row lock, which cannot lose: the second attempt
   * waits instead of racing (decisions.md 48, 109).
   */
  async execute(input: UpdateBrandInput): Promise<BrandView> {
    const written = await this.unitOfWork.runOneWrite(async () => {
      const brand = await this.read(input);
      brand.update(input.changes, this.clock.now());
      return (await this.brands.saveIfUnchanged(brand)) ? toBrandView(brand) : null;
    });
    return written ?? this.updateLocked(input);
  }

  private updateLocked(input: UpdateBrandInput): Promise<BrandView> {
    return this.unitOfWork.run(async () => {
      const brand = await this.read(input, { forUpdate: true });
      brand.update(input.changes, this.clock.now());
      await this.brands.save(brand);
      return toBrandView(brand);
    });
  }

  private read(input: UpdateBrandInput, options: { forUpdate?: boolean } = {}) {
    return foundOrFail('brand', 'brand', input.brandId, () => this.brands.findById(input.tenantId, input.brandId, options));
  }
}
