import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Brand } from '../../../domain/brand/brand';
import { BrandRepository } from '../../../domain/brand/brand-repository.port';
import { Appearance } from '../../../domain/brand/brand.state';
import { Theme } from '../../../domain/brand/theme';
import { outboxInsert, outboxParams, recordedEvents, writeForRelay } from '../outbox/outbox.writer';
import { requireTransaction, sqlRows } from '../connection/sql-statement';
import { storedBrandView } from '../stored/stored-views';

interface BrandRow {
  id: string;
  tenant_id: string;
  name: string;
  preferred_appearance: Appearance;
  theme_light: Theme;
  theme_dark: Theme;
  company_home_page: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, tenant_id, name, preferred_appearance, theme_light, theme_dark, company_home_page, created_at, updated_at';

/**
 * Brands with plain statements instead of the ORM's change sets: a create is one statement (the
 * INSERT and the events the brand recorded) and a PATCH one SELECT … FOR UPDATE and one statement
 * (the UPDATE and its events), without change sets and a flush; the API's CPU per write was
 * mostly that machinery (POST pages and duplicate, docs/performance-analysis.md). Each write
 * stores the brand's response JSON beside the row (stored-views.ts) for the reads to send. On the
 * unit of work's connection, so the PATCH's row lock holds to its commit.
 */
@Injectable()
export class SqlBrandRepository extends BrandRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async findById(tenantId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<Brand | null> {
    if (options.forUpdate) requireTransaction(this.em, 'a brand read for update');
    const rows = await sqlRows<BrandRow>(
      this.em,
      `SELECT ${COLUMNS} FROM brands WHERE id = $1 AND tenant_id = $2${options.forUpdate ? ' FOR UPDATE' : ''}`,
      [id, tenantId],
    );
    return rows.length === 0 ? null : toBrand(rows[0]);
  }

  // The events' rows are written by the same statement, after the brand's: atomic without a
  // transaction of its own (a create is one statement), and only if the brand's row was written.
  async add(brand: Brand): Promise<void> {
    await writeForRelay(
      this.em,
      `WITH brand AS (
         INSERT INTO brands (${COLUMNS}, view_json) VALUES ($1, $2, $3, $4, $5::json, $6::json, $7, $8, $9, $10) RETURNING 1)
       ${outboxInsert(11, { after: 'brand' })}`,
      [brand.id, brand.tenantId, ...this.fields(brand), brand.createdAt, brand.updatedAt, storedBrandView(brand), ...outboxParams(recordedEvents(brand))],
    );
  }

  async save(brand: Brand): Promise<void> {
    await writeForRelay(
      this.em,
      `WITH brand AS (
         UPDATE brands SET name = $1, preferred_appearance = $2, theme_light = $3::json, theme_dark = $4::json, company_home_page = $5, updated_at = $6,
           view_json = $7
         WHERE id = $8 AND tenant_id = $9 RETURNING 1)
       ${outboxInsert(10, { after: 'brand' })}`,
      [...this.fields(brand), brand.updatedAt, storedBrandView(brand), brand.id, brand.tenantId, ...outboxParams(recordedEvents(brand))],
    );
  }

  /** The columns a change may touch (but the stored view). */
  private fields(brand: Brand): unknown[] {
    return [brand.name, brand.preferredAppearance, JSON.stringify(brand.themeLight), JSON.stringify(brand.themeDark), brand.companyHomePage];
  }
}

function toBrand(row: BrandRow): Brand {
  return Brand.restore({
    id: row.id,
    tenantId: row.tenant_id,
    name: row.name,
    preferredAppearance: row.preferred_appearance,
    themeLight: row.theme_light,
    themeDark: row.theme_dark,
    companyHomePage: row.company_home_page,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  });
}
