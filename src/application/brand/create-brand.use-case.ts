import { Injectable } from '@nestjs/common';
import { Brand, NewBrand } from '../../domain/brand/brand';
import { BrandRepository } from '../../domain/brand/brand-repository.port';
import { BrandView, toBrandView } from '../../domain/brand/brand.view';
import { Clock } from '../../domain/shared/clock.port';
import { UnitOfWork } from '../shared/unit-of-work.port';

@Injectable()
export class CreateBrand {
  constructor(
    private readonly brands: BrandRepository,
    private readonly clock: Clock,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** The brand and its `brand.created` commit together (one statement: decisions.md 84). */
  async execute(input: NewBrand): Promise<BrandView> {
    const brand = Brand.create(input, this.clock.now());
    await this.unitOfWork.runOneWrite(() => this.brands.add(brand));
    return toBrandView(brand);
  }
}
