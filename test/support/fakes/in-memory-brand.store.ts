import { BrandQueries } from '../../../src/application/brand/brand-queries.port';
import { BrandView, toBrandView } from '../../../src/domain/brand/brand.view';
import { JsonText } from '../../../src/application/shared/json-text';
import { mapSlice, ListSlice, ListRequest, toSlice } from '../../../src/application/shared/pagination';
import { Brand } from '../../../src/domain/brand/brand';
import { BrandRepository } from '../../../src/domain/brand/brand-repository.port';
import { DomainEvent } from '../../../src/domain/shared/domain-event';

/** Both brand ports over one map, as the database serves both in production; the events written with them, in order. */
export class InMemoryBrands extends BrandRepository {
  readonly rows = new Map<string, string>();
  readonly events: DomainEvent[] = [];
  saves = 0;
  /** Runs once, between the next read and its optimistic write: another writer getting there first. */
  beforeNextWrite?: () => Promise<unknown>;
  /** The stored text each brand was read as: an optimistic write checks the row is still that. */
  private readonly readAs = new WeakMap<Brand, string>();

  async findById(tenantId: string, id: string): Promise<Brand | null> {
    const stored = this.rows.get(id);
    if (!stored) return null;
    const brand = revive(stored);
    this.readAs.set(brand, stored);
    return brand.tenantId === tenantId ? brand : null;
  }

  /** Always a fresh read: the fake keeps no copies (the SQL repository's are tested against PostgreSQL). */
  findLatestKnown(tenantId: string, id: string): Promise<Brand | null> {
    return this.findById(tenantId, id);
  }

  async add(brand: Brand): Promise<void> {
    if (this.rows.has(brand.id)) throw new Error(`brand ${brand.id} was added already`);
    this.write(brand);
  }

  async save(brand: Brand, options: { ifUnchanged?: boolean } = {}): Promise<boolean> {
    if (!options.ifUnchanged) {
      if (!this.rows.has(brand.id)) throw new Error(`brand ${brand.id} was never added`);
      this.write(brand);
      return true;
    }
    const racer = this.beforeNextWrite;
    this.beforeNextWrite = undefined;
    await racer?.();
    if (this.rows.get(brand.id) !== this.readAs.get(brand)) {
      brand.pullEvents();
      return false;
    }
    this.write(brand);
    return true;
  }

  /** The row and the events the brand recorded, as the SQL repository writes them. */
  private write(brand: Brand): void {
    this.saves++;
    this.events.push(...brand.pullEvents());
    this.rows.set(brand.id, JSON.stringify(brand));
  }

  queries(): BrandQueries {
    const all = () => [...this.rows.values()].map(revive);
    return new (class extends BrandQueries {
      async list(tenantId: string, page: ListRequest): Promise<ListSlice<JsonText<BrandView>>> {
        const rows = all()
          .filter((b) => b.tenantId === tenantId && (!page.after || b.id < page.after))
          .sort((a, b) => (a.id < b.id ? 1 : -1))
          .slice(0, page.limit + 1);
        return mapSlice(toSlice(rows, page.limit, (b) => b.id), asText);
      }
      async findById(tenantId: string, brandId: string): Promise<JsonText<BrandView> | null> {
        const brand = all().find((b) => b.id === brandId && b.tenantId === tenantId);
        return brand ? asText(brand) : null;
      }
    })();
  }
}

/** The view as the database keeps it: the JSON text of the brand's response. */
function asText(brand: Brand): JsonText<BrandView> {
  return new JsonText(JSON.stringify(toBrandView(brand)));
}

/** Stored copies are revived as the SQL repository does, through `Brand.restore`. */
function revive(json: string): Brand {
  const data = JSON.parse(json);
  return Brand.restore({ ...data, createdAt: new Date(data.createdAt), updatedAt: new Date(data.updatedAt) });
}
