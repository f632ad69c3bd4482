import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { BrandQueries } from '../../../application/brand/brand-queries.port';
import { BrandView } from '../../../domain/brand/brand.view';
import { JsonText } from '../../../application/shared/json-text';
import { mapSlice, ListSlice, ListRequest, toSlice } from '../../../application/shared/pagination';
import { schema } from '../typed/database';
import { statementVariants, typedStatement } from '../typed/statement';

// view_json is the brand's response JSON, stored by the writer of the row (stored-views.ts):
// sent as it is, never parsed here.
const LIST = statementVariants((from: 'after' | 'first') =>
  typedStatement<{ tenantId: string; after: string; limit: number }>()((arg) =>
    schema
      .selectFrom('brands')
      .select(['id', 'view_json'])
      .where('tenant_id', '=', arg('tenantId'))
      .$if(from === 'after', (qb) => qb.where('id', '<', arg('after')))
      .orderBy('id', 'desc')
      .limit(arg('limit')),
  ),
);
const BY_ID = typedStatement<{ tenantId: string; id: string }>()((arg) =>
  schema.selectFrom('brands').select('view_json').where('tenant_id', '=', arg('tenantId')).where('id', '=', arg('id')),
);

@Injectable()
export class SqlBrandQueries extends BrandQueries {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async list(tenantId: string, page: ListRequest): Promise<ListSlice<JsonText<BrandView>>> {
    // Keyset on (tenant_id, id DESC): ids are UUIDv7 TypeIDs, so this is newest first, and rows
    // inserted during a walk land before the cursor and never shift it.
    const rows = await LIST(page.after ? 'after' : 'first').rows(this.em, { tenantId, after: page.after ?? '', limit: page.limit + 1 });
    return mapSlice(toSlice(rows, page.limit, (row) => row.id), (row) => new JsonText<BrandView>(row.view_json));
  }

  async findById(tenantId: string, brandId: string): Promise<JsonText<BrandView> | null> {
    const [row] = await BY_ID.rows(this.em, { tenantId, id: brandId });
    return row ? new JsonText<BrandView>(row.view_json) : null;
  }
}
