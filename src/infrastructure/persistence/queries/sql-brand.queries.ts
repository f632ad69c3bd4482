import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { BrandQueries } from '../../../application/brand/brand.queries';
import { BrandView } from '../../../application/brand/brand.view';
import { Page, PageRequest, toPage } from '../../../application/shared/pagination';
import { Appearance } from '../../../domain/brand/brand';
import { completeTheme, Theme } from '../../../domain/brand/theme';
import { preparedRows } from '../prepared';
import { isoTimestamp } from '../sql';

interface BrandRow {
  id: string;
  tenant_id: string;
  name: string;
  preferred_appearance: Appearance;
  theme_light: Theme;
  theme_dark: Theme;
  company_home_page: string | null;
  created_at: string;
  updated_at: string;
}

const COLUMNS = `id, tenant_id, name, preferred_appearance, theme_light, theme_dark, company_home_page,
  ${isoTimestamp('created_at')} AS created_at, ${isoTimestamp('updated_at')} AS updated_at`;

@Injectable()
export class SqlBrandQueries extends BrandQueries {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async list(tenantId: string, page: PageRequest): Promise<Page<BrandView>> {
    // Keyset on (tenant_id, id DESC): ids are UUIDv7 TypeIDs, so this is newest first, and rows
    // inserted during a walk land before the cursor and never shift it.
    const rows = page.after
      ? await this.rows('brands-list-after', `WHERE tenant_id = $1 AND id < $2 ORDER BY id DESC LIMIT $3`, [tenantId, page.after, page.limit + 1])
      : await this.rows('brands-list', `WHERE tenant_id = $1 ORDER BY id DESC LIMIT $2`, [tenantId, page.limit + 1]);
    return toPage(rows.map(toView), page.limit, (brand) => brand.brandId);
  }

  async findById(tenantId: string, brandId: string): Promise<BrandView | null> {
    const rows = await this.rows('brand-by-id', `WHERE tenant_id = $1 AND id = $2`, [tenantId, brandId]);
    return rows.length === 0 ? null : toView(rows[0]);
  }

  private rows(name: string, where: string, params: unknown[]): Promise<BrandRow[]> {
    return preparedRows<BrandRow>(this.em, name, `SELECT ${COLUMNS} FROM brands ${where}`, params);
  }
}

function toView(row: BrandRow): BrandView {
  return {
    brandId: row.id,
    name: row.name,
    preferredAppearance: row.preferred_appearance,
    tenantId: row.tenant_id,
    // Stored as written (json), possibly by an older version: the view puts the spec's order.
    themeLight: completeTheme(row.theme_light),
    themeDark: completeTheme(row.theme_dark),
    ...(row.company_home_page !== null && { companyHomePage: row.company_home_page }),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
