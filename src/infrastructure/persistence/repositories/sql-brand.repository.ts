import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Brand } from '../../../domain/brand/brand';
import { BrandRepository } from '../../../domain/brand/brand-repository.port';
import { BrandState } from '../../../domain/brand/brand.state';
import { BoundedMemo } from '../../memo/bounded-memo';
import { outboxParams, recordedEvents, writeAggregates } from '../outbox/outbox.writer';
import { requireTransaction } from '../connection/sql-statement';
import { sql } from 'kysely';
import { schema } from '../typed/database';
import { type RowOf, statementVariants, typedStatement } from '../typed/statement';
import { INSERT_BRAND, ROW_VERSION, UPDATE_BRAND } from './brand-writes.sql';
import { touched } from '../connection/after-commit';
import { storedBrandView } from '../stored/stored-views';

/** Brands whose last known state a process keeps (about 1.5 KB each). */
const KNOWN_BRANDS = 2_000;

const FIND = statementVariants((lock: 'plain' | 'for update') =>
  typedStatement<{ id: string; tenantId: string }>()((arg) =>
    schema
      .selectFrom('brands')
      .select(sql<string>`${sql.raw(ROW_VERSION)}`.as('version'))
      .select(['id', 'tenant_id', 'name', 'preferred_appearance', 'theme_light', 'theme_dark', 'company_home_page', 'created_at', 'updated_at'])
      .where('id', '=', arg('id'))
      .where('tenant_id', '=', arg('tenantId'))
      .$if(lock === 'for update', (qb) => qb.forUpdate()),
  ),
);

/**
 * Brands with plain statements instead of the ORM's change sets: a create is one statement (the
 * INSERT and the events the brand recorded) and a PATCH one SELECT … FOR UPDATE and one statement
 * (the UPDATE and its events), without change sets and a flush; the API's CPU per write was
 * mostly that machinery (POST pages and duplicate, docs/performance-analysis.md). A PATCH tries
 * first without the lock: a plain SELECT and one statement that writes only if the row is the
 * version read (ROW_VERSION: its xmin and updated_at, which every write changes). Each write
 * stores the brand's response JSON beside the row (stored-views.ts) for the reads to send. On the
 * unit of work's connection, so the PATCH's row lock holds to its commit.
 */
@Injectable()
export class SqlBrandRepository extends BrandRepository {
  /** The row version each brand was read or written at, for an optimistic save. */
  private readonly versions = new WeakMap<Brand, string>();
  /**
   * The brands this process last read or wrote, each with its row version, for findLatestKnown:
   * a PATCH of one of them is one round trip (the version-checked write), not two. A copy older
   * than its row (another process wrote it) only makes that write find nothing and the PATCH go
   * the locked way, which reads afresh (decisions.md 113).
   */
  private readonly known = new BoundedMemo<{ state: BrandState; version: string }>(KNOWN_BRANDS);

  constructor(private readonly em: EntityManager) {
    super();
  }

  async findById(tenantId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<Brand | null> {
    if (options.forUpdate) requireTransaction(this.em, 'a brand read for update');
    const [row] = await FIND(options.forUpdate ? 'for update' : 'plain').rows(this.em, { id, tenantId });
    if (!row) return null;
    const brand = toBrand(row);
    this.remember(brand, row.version);
    return touched(brand);
  }

  async findLatestKnown(tenantId: string, id: string): Promise<Brand | null> {
    const kept = this.known.get(knownKey(tenantId, id));
    if (!kept) return this.findById(tenantId, id);
    // A new aggregate each time, with theme objects of its own: no PATCH reaches another's copy.
    const brand = Brand.restore({ ...kept.state, themeLight: { ...kept.state.themeLight }, themeDark: { ...kept.state.themeDark } });
    this.versions.set(brand, kept.version);
    return touched(brand);
  }

  // The events' rows are written by the same statement, after the brand's: atomic without a
  // transaction of its own (a create is one statement), and only if the brand's row was written.
  async add(brand: Brand): Promise<void> {
    const rows = await writeAggregates<{ version: string }>(
      this.em,
      [brand],
      INSERT_BRAND,
      [brand.id, brand.tenantId, ...this.fields(brand), brand.createdAt, brand.updatedAt, storedBrandView(brand), ...outboxParams(recordedEvents(brand))],
    );
    this.remember(brand, rows[0].version);
  }

  async save(brand: Brand, options: { ifUnchanged?: boolean } = {}): Promise<boolean> {
    if (!options.ifUnchanged) return this.update(brand, null);
    const version = this.versions.get(brand);
    if (version === undefined) throw new Error('an optimistic save needs a brand this repository read or wrote');
    return this.update(brand, version);
  }

  /** The UPDATE and its events in one statement; with `version`, only if the row is still that version. */
  private async update(brand: Brand, version: string | null): Promise<boolean> {
    const rows = await writeAggregates<{ version: string }>(
      this.em,
      [brand],
      UPDATE_BRAND,
      [...this.fields(brand), brand.updatedAt, storedBrandView(brand), brand.id, brand.tenantId, version, ...outboxParams(recordedEvents(brand))],
    );
    if (rows.length === 0) {
      this.known.delete(knownKey(brand.tenantId, brand.id));
      return false;
    }
    this.remember(brand, rows[0].version);
    return true;
  }

  /**
   * Keeps the brand's state at this row version. A version written inside a transaction that
   * then rolls back is kept too, harmlessly: no row ever has it, so the next write with it finds
   * nothing and reads afresh.
   */
  private remember(brand: Brand, version: string): void {
    this.versions.set(brand, version);
    const state: BrandState = {
      id: brand.id,
      tenantId: brand.tenantId,
      name: brand.name,
      preferredAppearance: brand.preferredAppearance,
      // Themes are replaced on a change, never mutated; findLatestKnown copies them for each PATCH.
      themeLight: brand.themeLight,
      themeDark: brand.themeDark,
      companyHomePage: brand.companyHomePage,
      createdAt: brand.createdAt,
      updatedAt: brand.updatedAt,
    };
    this.known.set(knownKey(brand.tenantId, brand.id), { state, version });
  }

  /** The columns a change may touch (but the stored view). */
  private fields(brand: Brand): unknown[] {
    return [brand.name, brand.preferredAppearance, JSON.stringify(brand.themeLight), JSON.stringify(brand.themeDark), brand.companyHomePage];
  }
}

/** A kept brand's key: a brand id is unique, the tenant keeps another tenant's id a miss. */
function knownKey(tenantId: string, id: string): string {
  return `${tenantId} ${id}`;
}

function toBrand(row: RowOf<ReturnType<typeof FIND>>): Brand {
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
