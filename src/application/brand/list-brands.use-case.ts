import { Injectable } from '@nestjs/common';
import { JsonText } from '../shared/json-text';
import { ListSlice, ListRequest } from '../shared/pagination';
import { BrandQueries } from './brand-queries.port';
import { BrandView } from '../../domain/brand/brand.view';

@Injectable()
export class ListBrands {
  constructor(private readonly brands: BrandQueries) {}

  execute(input: { tenantId: string } & ListRequest): Promise<ListSlice<JsonText<BrandView>>> {
    return this.brands.list(input.tenantId, { limit: input.limit, after: input.after });
  }
}
