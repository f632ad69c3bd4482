import { Injectable } from '@nestjs/common';
import { Brand, NewBrand } from '../../domain/brand/brand';
import { BrandRepository } from '../../domain/brand/brand.repository';
import { Clock } from '../../domain/shared/clock';
import { Outbox } from '../shared/outbox';
import { UnitOfWork } from '../shared/unit-of-work';
import { brandEvent } from './brand.events';
import { BrandView, toBrandView } from './brand.view';

@Injectable()
export class CreateBrand {
  constructor(
    private readonly brands: BrandRepository,
    private readonly outbox: Outbox,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** The brand and its `brand.created` commit together. */
  async execute(input: NewBrand): Promise<BrandView> {
    const brand = Brand.create(input, this.clock.now());
    const view = toBrandView(brand);
    await this.unitOfWork.run(async () => {
      await this.brands.add(brand);
      await this.outbox.append([brandEvent('brand.created', view, brand.createdAt)]);
    });
    return view;
  }
}
