import { MikroORM } from '@mikro-orm/postgresql';
import { AggregateRoot } from '../../src/domain/shared/aggregate-root';
import { DomainEvent, domainEvent } from '../../src/domain/shared/domain-event';
import { WebhookSubscription } from '../../src/domain/webhook/webhook-subscription';
import { TestDelivery } from '../../src/domain/webhook/test-delivery';
import { Brand } from '../../src/domain/brand/brand';
import { sqlRows } from '../../src/infrastructure/persistence/connection/sql-statement';
import { SecretCipher } from '../../src/infrastructure/crypto/secret-cipher';
import { SqlBrandRepository } from '../../src/infrastructure/persistence/repositories/sql-brand.repository';
import { SqlPageGroupRepository } from '../../src/infrastructure/persistence/repositories/sql-page-group.repository';
import { SqlPageRepository, SqlPageVersionRepository } from '../../src/infrastructure/persistence/repositories/sql-page.repository';
import { SqlWebhookSubscriptionRepository } from '../../src/infrastructure/persistence/repositories/sql-webhook-subscription.repository';
import { SqlDeliveryRequests } from '../../src/infrastructure/persistence/webhooks/sql-delivery-requests.store';
import { PageVersion } from '../../src/domain/page/page-version';
import { aBrand, aPage, aPageGroup } from '../support/builders/aggregates';
import { groupOfNewTenant, newTenantId } from '../support/builders/stored';
import { inUnitOfWork, openTestOrm, sqlIn } from '../support/database';

// Issue 43, item 1: events are saved by construction. Every repository write of an aggregate that
// records events takes every event it recorded, an extra one included, into the outbox with it;
// a write that does not write events refuses an aggregate that holds one, before writing anything
// (the repository would have lost it without a word).
let orm: MikroORM;
const cipher = new SecretCipher(Buffer.alloc(32, 7));
beforeAll(async () => {
  orm = await openTestOrm();
});
afterAll(() => orm.close(true));

/** An event of the catalogue recorded on the aggregate as its own methods would. */
function recordExtra(aggregate: AggregateRoot, tenantId: string): DomainEvent {
  const event = domainEvent('brand.updated', tenantId, new Date(), { extra: true });
  (aggregate as unknown as { record(e: DomainEvent): void }).record(event);
  return event;
}
const inOutbox = async (ids: string[]) => (await sqlIn<{ id: string }>(orm, `SELECT id FROM outbox_events WHERE id IN (${ids.map(() => '?').join(', ')})`, ids)).map((r) => r.id).sort();
const subscriptions = () => new SqlWebhookSubscriptionRepository(orm.em, cipher);
const aSubscription = (tenantId: string) => WebhookSubscription.create({ tenantId, url: 'https://hooks.example.com/x', events: ['page.version.created'] }, 'whsec_x', new Date());

describe('every event an aggregate recorded', () => {
  it('reaches the outbox through the writes that write events: brand add and save, page and version, subscription save, test delivery', async () => {
    const tenantId = await newTenantId(orm, 'Events');
    const brand = aBrand(tenantId);
    const extras = [recordExtra(brand, tenantId)];
    const created = brand.peekEvents().map((e) => e.id);
    await inUnitOfWork(orm, () => new SqlBrandRepository(orm.em).add(brand), { oneWrite: true });
    extras.push(recordExtra(brand, tenantId));
    await inUnitOfWork(orm, () => new SqlBrandRepository(orm.em).save(brand), { oneWrite: true });

    const group = await groupOfNewTenant(orm, 'Events pages');
    const { page, firstVersion } = aPage(group);
    extras.push(recordExtra(page, group.tenantId));
    const pageEvents = [...page.peekEvents(), ...firstVersion.peekEvents()].map((e) => e.id);
    await inUnitOfWork(orm, () => new SqlPageRepository(orm.em).add(page, firstVersion), { oneWrite: true });
    const second = PageVersion.next(page, 1, new Date());
    extras.push(recordExtra(second, group.tenantId));
    await inUnitOfWork(orm, () => new SqlPageVersionRepository(orm.em).add(page, second), { oneWrite: true });

    const subscription = aSubscription(tenantId);
    await inUnitOfWork(orm, () => subscriptions().add(subscription, 100));
    extras.push(recordExtra(subscription, tenantId));
    await inUnitOfWork(orm, () => subscriptions().save(subscription));
    subscription.rotateSecret('whsec_rotated', 60, new Date());
    extras.push(recordExtra(subscription, tenantId));
    await inUnitOfWork(orm, () => subscriptions().save(subscription));

    const test = TestDelivery.to({ tenantId, subscriptionId: subscription.id }, new Date());
    // Its one event is the delivery's (the statement makes the delivery from it): no extra here.
    const testEvent = test.peekEvents()[0].id;
    await inUnitOfWork(orm, () => new SqlDeliveryRequests(orm.em).addTest(test, 100));

    const expected = [...created, ...pageEvents, ...extras.map((e) => e.id), testEvent];
    expect(await inOutbox(expected)).toEqual([...new Set(expected)].sort());
    for (const aggregate of [brand, page, firstVersion, second, subscription, test]) expect(aggregate.peekEvents()).toEqual([]);
  });

  it('makes a write that does not write events refuse the aggregate, and nothing is written: page group add, subscription add', async () => {
    const tenantId = await newTenantId(orm, 'Events refused');
    const refused = async (write: () => Promise<unknown>) => expect(inUnitOfWork(orm, write)).rejects.toThrow('events recorded and not written');

    const group = aPageGroup(tenantId);
    const groupEvent = recordExtra(group, tenantId);
    await refused(() => new SqlPageGroupRepository(orm.em).add(group));
    expect(await sqlIn(orm, 'SELECT 1 FROM page_groups WHERE id = ?', [group.id])).toEqual([]);

    const subscription = aSubscription(tenantId);
    const subscriptionEvent = recordExtra(subscription, tenantId);
    await refused(() => subscriptions().add(subscription, 100));
    expect(await sqlIn(orm, 'SELECT 1 FROM webhook_subscriptions WHERE id = ?', [subscription.id])).toEqual([]);
    expect(await inOutbox([groupEvent.id, subscriptionEvent.id])).toEqual([]);
  });

  it("writes a subscription's secrets again only when a rotation changed them: the target version stays put otherwise", async () => {
    const tenantId = await newTenantId(orm, 'Secrets kept');
    const subscription = aSubscription(tenantId);
    await inUnitOfWork(orm, () => subscriptions().add(subscription, 100));
    const stored = async () => (await sqlIn<{ secret: string; previous: unknown }>(orm, 'SELECT signing_secret_encrypted AS secret, previous_signing_secrets AS previous FROM webhook_subscriptions WHERE id = ?', [subscription.id]))[0];
    const first = await stored();
    await inUnitOfWork(orm, async () => {
      const loaded = (await subscriptions().findById(tenantId, subscription.id, { forUpdate: true }))!;
      loaded.update({ url: 'https://hooks.example.com/moved' }, new Date());
      await subscriptions().save(loaded);
    });
    expect(await stored()).toEqual(first);
    await inUnitOfWork(orm, async () => {
      const repository = subscriptions();
      const loaded = (await repository.findById(tenantId, subscription.id, { forUpdate: true }))!;
      loaded.rotateSecret('whsec_next', 3600, new Date());
      await repository.save(loaded);
    });
    const rotated = await stored();
    expect(rotated.secret).not.toEqual(first.secret);
    const reloaded = await inUnitOfWork(orm, () => subscriptions().findById(tenantId, subscription.id));
    expect(reloaded!.signingSecret).toBe('whsec_next');
    expect(reloaded!.previousSecrets.map((old) => old.secret)).toEqual(['whsec_x']);
    expect(reloaded!.url).toBe('https://hooks.example.com/moved');
  });

  it('refuses to commit a unit of work whose aggregate still holds an event: never saved, or saved by a repository that forgot it', async () => {
    const tenantId = await newTenantId(orm, 'Events unsaved');
    const brand = aBrand(tenantId);
    await inUnitOfWork(orm, () => new SqlBrandRepository(orm.em).add(brand), { oneWrite: true });
    const nameOf = async () => (await sqlIn<{ name: string }>(orm, 'SELECT name FROM brands WHERE id = ?', [brand.id]))[0].name;
    const before = await nameOf();

    // A use case that changes the aggregate and forgets to save it.
    let forgotten: DomainEvent[] = [];
    await expect(
      inUnitOfWork(orm, async () => {
        const loaded = (await new SqlBrandRepository(orm.em).findById(tenantId, brand.id, { forUpdate: true }))!;
        loaded.update({ name: 'Never saved' }, new Date());
        forgotten = [...loaded.peekEvents()];
      }),
    ).rejects.toThrow('the unit of work would commit with events no write took: brand.updated');

    // A repository whose write takes the row and not the events (not through writeAggregates).
    class ForgetfulBrands extends SqlBrandRepository {
      override async save(changed: Brand): Promise<boolean> {
        await sqlRows(orm.em, 'UPDATE brands SET name = $1 WHERE id = $2', [changed.name, changed.id]);
        return true;
      }
    }
    await expect(
      inUnitOfWork(orm, async () => {
        const repository = new ForgetfulBrands(orm.em);
        const loaded = (await repository.findById(tenantId, brand.id, { forUpdate: true }))!;
        loaded.update({ name: 'Saved without its event' }, new Date());
        forgotten.push(...loaded.peekEvents());
        await repository.save(loaded);
      }),
    ).rejects.toThrow('brand.updated');
    // Rolled back: neither the row nor an event was written.
    expect(await nameOf()).toBe(before);
    expect(await inOutbox(forgotten.map((event) => event.id))).toEqual([]);
  });
});
