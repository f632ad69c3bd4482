import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Appearance, Brand } from '../../../domain/brand/brand';
import { BrandRepository } from '../../../domain/brand/brand.repository';
import { DomainEvent } from '../../../domain/shared/domain-event';
import { committingOutbox, markOutboxWritten } from '../outbox/outbox-wake';
import { outboxInsertAfter, outboxParams } from '../outbox/outbox.writer';
import { Theme } from '../../../domain/brand/theme';
import { sqlRows } from '../sql-statement';
import { hydrate } from '../schemas/entity-class';
import { storedBrandView } from '../stored-views';

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
 * Brands with plain statements instead of the ORM's unit of work: a create is one statement (the
 * INSERT and its event's) and a PATCH one SELECT … FOR UPDATE and one statement (the UPDATE and
 * its event's), without change sets, a flush and (for a create) its BEGIN/COMMIT round trips; the API's CPU per write was mostly that machinery (POST pages and
 * duplicate, docs/performance-analysis.md). Each write stores the brand's response JSON beside the
 * row (stored-views.ts) for the reads to send. On the unit of work's connection when there is one
 * (sqlRows), so the PATCH's row lock holds.
 */
@Injectable()
export class SqlBrandRepository extends BrandRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async findById(tenantId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<Brand | null> {
    const rows = await sqlRows<BrandRow>(
      this.em,
      `SELECT ${COLUMNS} FROM brands WHERE id = $1 AND tenant_id = $2${options.forUpdate ? ' FOR UPDATE' : ''}`,
      [id, tenantId],
    );
    return rows.length === 0 ? null : toBrand(rows[0]);
  }

  // The event's row is written by the same statement, FROM the brand's: atomic without a
  // transaction of its own (a create is autocommit), and only if the brand's row was written.
  async add(brand: Brand, event: DomainEvent): Promise<void> {
    await this.withEvent(
      `WITH brand AS (
         INSERT INTO brands (${COLUMNS}, view_json) VALUES ($1, $2, $3, $4, $5::json, $6::json, $7, $8, $9, $10) RETURNING 1)
       ${outboxInsertAfter('brand', 11)}`,
      [brand.id, brand.tenantId, ...this.fields(brand), brand.createdAt, brand.updatedAt, storedBrandView(brand)],
      event,
    );
  }

  async save(brand: Brand, event: DomainEvent): Promise<void> {
    await this.withEvent(
      `WITH brand AS (
         UPDATE brands SET name = $1, preferred_appearance = $2, theme_light = $3::json, theme_dark = $4::json, company_home_page = $5, updated_at = $6,
           view_json = $7
         WHERE id = $8 AND tenant_id = $9 RETURNING 1)
       ${outboxInsertAfter('brand', 10)}`,
      [...this.fields(brand), brand.updatedAt, storedBrandView(brand), brand.id, brand.tenantId],
      event,
    );
  }

  /** Runs a write whose last statement inserts `event` (parameters after `params`); wakes the relay after the commit. */
  private withEvent(sql: string, params: unknown[], event: DomainEvent): Promise<void> {
    return committingOutbox(this.em, async () => {
      await sqlRows(this.em, sql, [...params, ...outboxParams(event)]);
      markOutboxWritten();
    });
  }

  /** The columns a change may touch (but the stored view). */
  private fields(brand: Brand): unknown[] {
    return [brand.name, brand.preferredAppearance, JSON.stringify(brand.themeLight), JSON.stringify(brand.themeDark), brand.companyHomePage];
  }
}

function toBrand(row: BrandRow): Brand {
  return hydrate(Brand, {
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
