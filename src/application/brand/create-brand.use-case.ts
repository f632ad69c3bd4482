import { Injectable } from '@nestjs/common';
import { Brand, NewBrand } from '../../domain/brand/brand';
import { BrandRepository } from '../../domain/brand/brand.repository';
import { Clock } from '../../domain/shared/clock';
import { BrandView, toBrandView } from './brand.view';

@Injectable()
export class CreateBrand {
  constructor(
    private readonly brands: BrandRepository,
    private readonly clock: Clock,
  ) {}

  async execute(input: NewBrand): Promise<BrandView> {
    const brand = Brand.create(input, this.clock.now());
    await this.brands.add(brand);
    return toBrandView(brand);
  }
}
