import { CreateBrand } from '../../../../src/application/brand/create-brand.use-case';
import { GetBrand } from '../../../../src/application/brand/get-brand.use-case';
import { ListBrands } from '../../../../src/application/brand/list-brands.use-case';
import { UpdateBrand } from '../../../../src/application/brand/update-brand.use-case';
import { InvalidValueError, NotFoundError } from '../../../../src/domain/shared/domain-error';
import type { BrandView } from '../../../../src/domain/brand/brand.view';
import { FixedClock } from '../../../support/fakes/fixed-clock';
import { ImmediateUnitOfWork } from '../../../support/fakes/immediate-unit-of-work';
import { InMemoryBrands } from '../../../support/fakes/in-memory-brand.store';

const TENANT = 'tenant_01jdq8w9k1a2b3c4d5e6f7g8h9';
const OTHER = 'tenant_01jdq8w9k1a2b3c4d5e6f7g8ha';

function setup() {
  const brands = new InMemoryBrands();
  const clock = new FixedClock(new Date('2026-11-22T12:00:00.000Z'));
  const unitOfWork = new ImmediateUnitOfWork();
  return {
    brands,
    clock,
    unitOfWork,
    create: new CreateBrand(brands, clock, unitOfWork),
    update: new UpdateBrand(brands, clock, unitOfWork),
    get: new GetBrand(brands.queries()),
    list: new ListBrands(brands.queries()),
  };
}

const input = { tenantId: TENANT, name: 'Acme', preferredAppearance: 'light' as const, themeLight: {}, themeDark: { borderColor: '#000' } };

describe('brand use cases', () => {
  it('creates a brand and answers in the response shape, at the clock time', async () => {
    const { create } = setup();
    const view = await create.execute(input);
    expect(view).toMatchObject({ name: 'Acme', tenantId: TENANT, createdAt: '2026-11-22T12:00:00.000Z', updatedAt: '2026-11-22T12:00:00.000Z' });
    expect(view.themeDark.borderColor).toBe('#000');
    expect(view).not.toHaveProperty('companyHomePage');
  });

  it('writes brand.created and brand.updated with the Brand as answered, with the brand itself', async () => {
    const { create, update, brands, unitOfWork, clock } = setup();
    const created = await create.execute(input);
    clock.advance(1000);
    const updated = await update.execute({ tenantId: TENANT, brandId: created.brandId, changes: { name: 'Acme 2' } });
    expect(brands.events.map((e) => [e.type, e.tenantId, e.data, e.occurredAt.toISOString()])).toEqual([
      ['brand.created', TENANT, created, created.createdAt],
      ['brand.updated', TENANT, updated, updated.updatedAt],
    ]);
    expect(brands.events[0].id).toMatch(/^evt_[0-9a-z]{26}$/);
    // Each use case wrote in a unit of work of its own.
    expect(unitOfWork.runs).toBe(2);
  });

  it('saves nothing when the brand is invalid', async () => {
    const { create, brands } = setup();
    await expect(create.execute({ ...input, name: '' })).rejects.toThrow(InvalidValueError);
    expect(brands.saves).toBe(0);
  });

  it('patches a brand of the tenant in one unit of work and moves updatedAt', async () => {
    const { create, update, clock, unitOfWork } = setup();
    const created = await create.execute(input);
    clock.advance(5000);
    const runsBefore = unitOfWork.runs;
    const patched = await update.execute({ tenantId: TENANT, brandId: created.brandId, changes: { themeDark: { buttonTextColor: '#fff' } } });
    expect(patched.themeDark).toMatchObject({ borderColor: '#000', buttonTextColor: '#fff' });
    expect(patched.updatedAt).toBe('2026-11-22T12:00:05.000Z');
    expect(unitOfWork.runs - runsBefore).toBe(1);
  });

  it('when another write lands between its read and its write, merges into that one under the lock and records one event', async () => {
    const { create, update, brands, clock } = setup();
    const created = await create.execute(input);
    clock.advance(1000);
    const racer = new UpdateBrand(brands, clock, new ImmediateUnitOfWork());
    brands.beforeNextWrite = () => racer.execute({ tenantId: TENANT, brandId: created.brandId, changes: { themeDark: { mutedTextColor: '#222' } } });
    const patched = await update.execute({ tenantId: TENANT, brandId: created.brandId, changes: { themeDark: { buttonTextColor: '#fff' } } });
    // Both changes are in the answer and stored; updatedAt moved past the racer's.
    expect(patched.themeDark).toMatchObject({ borderColor: '#000', mutedTextColor: '#222', buttonTextColor: '#fff' });
    const stored = await brands.findById(TENANT, created.brandId);
    expect(stored?.themeDark).toMatchObject({ mutedTextColor: '#222', buttonTextColor: '#fff' });
    expect(patched.updatedAt).toBe('2026-11-22T12:00:01.001Z');
    // brand.created, the racer's brand.updated and this one's: the optimistic attempt wrote nothing.
    expect(brands.events.map((e) => e.type)).toEqual(['brand.created', 'brand.updated', 'brand.updated']);
    expect(brands.saves).toBe(3);
  });

  it("treats another tenant's brand and malformed ids as not found", async () => {
    const { create, update, get, brands } = setup();
    const created = await create.execute(input);
    await expect(get.execute({ tenantId: OTHER, brandId: created.brandId })).rejects.toThrow(NotFoundError);
    await expect(update.execute({ tenantId: OTHER, brandId: created.brandId, changes: { name: 'x' } })).rejects.toThrow(NotFoundError);
    await expect(get.execute({ tenantId: TENANT, brandId: 'tenant_01jdq8w9k1a2b3c4d5e6f7g8h9' })).rejects.toThrow(NotFoundError);
    expect(brands.saves).toBe(1);
  });

  it('lists newest first in pages that walk the whole set', async () => {
    const { create, list, clock } = setup();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      clock.advance(1);
      ids.push((await create.execute({ ...input, name: `b${i}` })).brandId);
    }
    const first = await list.execute({ tenantId: TENANT, limit: 2 });
    expect(first.items.map((b) => (JSON.parse(b.text) as BrandView).brandId)).toEqual([ids[4], ids[3]]);
    expect(first.hasMore).toBe(true);
    const rest = await list.execute({ tenantId: TENANT, limit: 10, after: first.lastId });
    expect(rest.items.map((b) => (JSON.parse(b.text) as BrandView).brandId)).toEqual([ids[2], ids[1], ids[0]]);
    expect(rest.hasMore).toBe(false);
    expect(rest.lastId).toBeUndefined();
  });
});
