import { openTestOrm } from './database';
import { isolatedDatabase } from './isolated-database';
import { startTestApp, TestApp } from './test-app';
import { WebhookReceiver } from './webhook-receiver';
import { startTestWorker } from './webhook-worker';

/**
 * For a test file of deliveries: the API, the worker and `receiver` on a database of their own
 * (the worker reads the whole outbox), started before its tests and stopped after; the
 * receiver starts each test on a path of its own (`startTest`), so a delivery an earlier test
 * left in flight cannot take this test's scripted answers. `world.t` is the API once started.
 */
export function deliveryWorld(receiver: WebhookReceiver): { t: TestApp } {
  const world = {} as { t: TestApp };
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let worker: Awaited<ReturnType<typeof startTestWorker>>;
  beforeAll(async () => {
    db = await isolatedDatabase();
    world.t = await startTestApp({ orm: await openTestOrm(db.url) });
    worker = await startTestWorker(db.url);
    await receiver.start();
  });
  afterAll(async () => {
    receiver.releaseParked();
    await worker.stop();
    await world.t.close();
    await world.t.orm.close(true);
    await receiver.stop();
    await db.drop();
  });
  beforeEach(() => receiver.startTest());
  return world;
}
