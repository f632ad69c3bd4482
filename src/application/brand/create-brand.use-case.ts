import { Injectable } from '@nestjs/common';
import { Brand, NewBrand } from '../../domain/brand/brand';
import { BrandRepository } from '../../domain/brand/brand.repository';
import { Clock } from '../../domain/shared/clock';
import { brandEvent } from './brand.events';
import { BrandView, toBrandView } from './brand.view';

@Injectable()
export class CreateBrand {
  constructor(
    private readonly brands: BrandRepository,
    private readonly clock: Clock,
  ) {}

  /** The brand and its `brand.created` commit together (one statement: decisions.md 84). */
  async execute(input: NewBrand): Promise<BrandView> {
    const brand = Brand.create(input, this.clock.now());
    const view = toBrandView(brand);
    await this.brands.add(brand, brandEvent('brand.created', view, brand.createdAt));
    return view;
  }
}
