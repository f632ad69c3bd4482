import { Injectable } from '@nestjs/common';
import { BrandChanges } from '../../domain/brand/brand';
import { BrandRepository } from '../../domain/brand/brand-repository.port';
import { Clock } from '../../domain/shared/clock.port';
import { UnitOfWork } from '../shared/unit-of-work.port';
import { BrandView, toBrandView } from '../../domain/brand/brand.view';
import { foundOrFail } from '../shared/found-or-fail';
import { Precondition } from '../shared/precondition';

interface UpdateBrandInput {
  tenantId: string;
  brandId: string;
  changes: BrandChanges;
  /** Checked on the brand as it is, under its row lock, before the change (If-Match). */
  precondition?: Precondition<BrandView>;
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
   * with the change. First optimistically: the brand as last known (often kept by the process,
   * else a plain read) and one statement that writes only if the row is still that version, one
   * or two round trips and no lock held. When another write came between, again under the
   * brand's row lock, which cannot lose: the second attempt waits instead of racing
   * (decisions.md 48, 109, 113).
   */
  async execute(input: UpdateBrandInput): Promise<BrandView> {
    // A precondition is checked on the brand as it is, which only the locked read knows for sure.
    if (input.precondition) return this.updateLocked(input);
    const written = await this.unitOfWork.runOneWrite(async () => {
      const brand = await foundOrFail('brand', 'brand', input.brandId, () => this.brands.findLatestKnown(input.tenantId, input.brandId));
      brand.update(input.changes, this.clock.now());
      return (await this.brands.save(brand, { ifUnchanged: true })) ? toBrandView(brand) : null;
    });
    return written ?? this.updateLocked(input);
  }

  private updateLocked(input: UpdateBrandInput): Promise<BrandView> {
    return this.unitOfWork.run(async () => {
      const brand = await foundOrFail('brand', 'brand', input.brandId, () => this.brands.findById(input.tenantId, input.brandId, { forUpdate: true }));
      input.precondition?.(toBrandView(brand));
      brand.update(input.changes, this.clock.now());
      await this.brands.save(brand);
      return toBrandView(brand);
    });
  }
}
