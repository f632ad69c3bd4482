import { Injectable } from '@nestjs/common';
import { JsonText } from '../shared/json-text';
import { BrandQueries } from './brand-queries.port';
import { BrandView } from '../../domain/brand/brand.view';
import { foundOrFail } from '../shared/found-or-fail';

@Injectable()
export class GetBrand {
  constructor(private readonly brands: BrandQueries) {}

  async execute(input: { tenantId: string; brandId: string }): Promise<JsonText<BrandView>> {
    // A malformed id or one of another kind cannot exist: 404 without asking the database.
    return foundOrFail('brand', 'brand', input.brandId, () => this.brands.findById(input.tenantId, input.brandId));
  }
}
