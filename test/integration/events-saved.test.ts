import { MikroORM } from '@mikro-orm/postgresql';
import { AggregateRoot } from '../../src/domain/shared/aggregate-root';
import { DomainEvent, domainEvent } from '../../src/domain/shared/domain-event';
import { WebhookSubscription } from '../../src/domain/webhook/webhook-subscription';
import { TestDelivery } from '../../src/domain/webhook/test-delivery';
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
  it('reaches the outbox through the writes that write events: brand add and save, page and version, subscription state, test delivery', async () => {
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
    await inUnitOfWork(orm, () => subscriptions().saveDeliveryState(subscription));

    const test = TestDelivery.to({ tenantId, subscriptionId: subscription.id }, new Date());
    // Its one event is the delivery's (the statement makes the delivery from it): no extra here.
    const testEvent = test.peekEvents()[0].id;
    await inUnitOfWork(orm, () => new SqlDeliveryRequests(orm.em).addTest(test, 100));

    const expected = [...created, ...pageEvents, ...extras.map((e) => e.id), testEvent];
    expect(await inOutbox(expected)).toEqual([...new Set(expected)].sort());
    for (const aggregate of [brand, page, firstVersion, second, subscription, test]) expect(aggregate.peekEvents()).toEqual([]);
  });

  it('makes a write that does not write events refuse the aggregate, and nothing is written: page group add and save, subscription add, save and secrets', async () => {
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
    subscription.pullEvents();
    await inUnitOfWork(orm, () => subscriptions().add(subscription, 100));
    subscription.update({ url: 'https://hooks.example.com/changed' }, new Date());
    recordExtra(subscription, tenantId);
    await refused(() => subscriptions().save(subscription));
    await refused(() => subscriptions().saveSecrets(subscription));
    expect(await sqlIn(orm, 'SELECT url FROM webhook_subscriptions WHERE id = ?', [subscription.id])).toEqual([{ url: 'https://hooks.example.com/x' }]);
    expect(await inOutbox([groupEvent.id, subscriptionEvent.id])).toEqual([]);
  });
});
