import { openTestOrm } from './database';
import { isolatedDatabase } from './isolated-database';
import { platform } from './platform';
import { createTenant, startTestApp, TestApp, TestTenant } from './test-app';
import { WebhookReceiver } from './webhook-receiver';
import { subscriptionBody } from './builders/subscriptions';
import { testLogger } from './silent-logger';

/**
 * A webhook test's world of its own: a database (so its worker takes no other test's events),
 * the API on it, a receiver on 127.0.0.1, and a tenant subscribed to `page.version.created`
 * with a page group to create pages in. `close()` takes it all down.
 */
export async function webhookScenario() {
  const db = await isolatedDatabase();
  // The API's log is kept so that an answer of 5xx, which no scenario expects, says why.
  const logged: string[] = [];
  const t: TestApp = await startTestApp({ orm: await openTestOrm(db.url), logger: testLogger(logged) });
  const receiver = new WebhookReceiver();
  await receiver.start();
  const tenant: TestTenant = await createTenant(t);
  const subscription = (await t.http.post('/v0/webhook_subscriptions').set('x-api-key', tenant.apiKey).send(subscriptionBody(receiver.url))).body;
  const group = await platform(t).group(tenant.tenantId);
  const createPages = async (n: number) => {
    const statuses = [];
    for (let i = 0; i < n; i++) {
      const res = await t.http.post(`/v0/page_groups/${group.pageGroupId}/pages`).set('x-api-key', tenant.apiKey);
      if (res.status >= 500) process.stderr.write(`POST pages answered ${res.status} ${JSON.stringify(res.body)}; the API logged:\n${logged.filter((line) => /"level":"(warn|error|fatal)"/.test(line)).slice(-5).join('')}\n`);
      statuses.push(res.status);
    }
    logged.length = 0;
    return statuses;
  };
  const close = async () => {
    receiver.releaseParked();
    await t.close();
    await t.orm.close(true);
    await receiver.stop();
    await db.drop();
  };
  return { db, t, receiver, tenant, subscription, group, createPages, close };
}
