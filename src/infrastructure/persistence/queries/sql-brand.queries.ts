import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { BrandQueries } from '../../../application/brand/brand-queries.port';
import { BrandView } from '../../../domain/brand/brand.view';
import { JsonText } from '../../../application/shared/json-text';
import { mapSlice, ListSlice, ListRequest, toSlice } from '../../../application/shared/pagination';
import { sqlRows } from '../connection/sql-statement';

interface BrandRow {
  id: string;
  view_json: string;
}

// Texts made once (see sql-brand.repository.ts).
const LIST_FIRST = 'SELECT id, view_json FROM brands WHERE tenant_id = $1 ORDER BY id DESC LIMIT $2';
const LIST_AFTER = 'SELECT id, view_json FROM brands WHERE tenant_id = $1 AND id < $2 ORDER BY id DESC LIMIT $3';
const BY_ID = 'SELECT id, view_json FROM brands WHERE tenant_id = $1 AND id = $2';

@Injectable()
export class SqlBrandQueries extends BrandQueries {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async list(tenantId: string, page: ListRequest): Promise<ListSlice<JsonText<BrandView>>> {
    // Keyset on (tenant_id, id DESC): ids are UUIDv7 TypeIDs, so this is newest first, and rows
    // inserted during a walk land before the cursor and never shift it.
    const rows = page.after
      ? await this.rows(LIST_AFTER, [tenantId, page.after, page.limit + 1])
      : await this.rows(LIST_FIRST, [tenantId, page.limit + 1]);
    return mapSlice(toSlice(rows, page.limit, (row) => row.id), (row) => new JsonText<BrandView>(row.view_json));
  }

  async findById(tenantId: string, brandId: string): Promise<JsonText<BrandView> | null> {
    const rows = await this.rows(BY_ID, [tenantId, brandId]);
    return rows.length === 0 ? null : new JsonText<BrandView>(rows[0].view_json);
  }

  // view_json is the brand's response JSON, stored by the writer of the row (stored-views.ts):
  // sent as it is, never parsed here.
  private rows(text: string, params: unknown[]): Promise<BrandRow[]> {
    return sqlRows<BrandRow>(this.em, text, params);
  }
}
