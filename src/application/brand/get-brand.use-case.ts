import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../domain/shared/domain-error';
import { isTypeId } from '../../domain/shared/type-id';
import { JsonText } from '../shared/json-text';
import { BrandQueries } from './brand.queries';
import { BrandView } from './brand.view';

@Injectable()
export class GetBrand {
  constructor(private readonly brands: BrandQueries) {}

  async execute(input: { tenantId: string; brandId: string }): Promise<JsonText<BrandView>> {
    // A malformed id or one of another kind cannot exist: 404 without asking the database.
    const found = isTypeId(input.brandId, 'brand') ? await this.brands.findById(input.tenantId, input.brandId) : null;
    if (!found) throw new NotFoundError('brand', input.brandId);
    return found;
  }
}
