import { Client } from 'pg';
import { TooManyWaitsError } from '../../src/application/event/event-feed-waits.port';
import { EVENT_FEED_CHANNEL } from '../../src/infrastructure/persistence/outbox/event-feed.sql';
import { PgEventFeedWaits } from '../../src/infrastructure/persistence/outbox/pg-event-feed.waits';
import { testDatabaseUrl } from '../support/test-database-url';
import { testLogger } from '../support/silent-logger';
import { TcpProxy } from '../support/tcp-proxy';

// The parked reads of one process (decisions.md 142), against the real LISTEN/NOTIFY.
const notify = async (payload: string) => {
  const client = new Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    await client.query('SELECT pg_notify($1, $2)', [EVENT_FEED_CHANNEL, payload]);
  } finally {
    await client.end();
  }
};

describe('PgEventFeedWaits', () => {
  it('bounds the waits per process as well as per tenant, and frees a slot when it is left', async () => {
    const waits = new PgEventFeedWaits(testDatabaseUrl(), testLogger(), { perTenant: 2, perProcess: 3 });
    try {
      const held = [await waits.enter('tenant_a'), await waits.enter('tenant_a')];
      await expect(waits.enter('tenant_a')).rejects.toMatchObject({ details: { scope: 'tenant', waiting: 2 } });
      held.push(await waits.enter('tenant_b'));
      const refused = waits.enter('tenant_c');
      await expect(refused).rejects.toThrow(TooManyWaitsError);
      await expect(refused).rejects.toMatchObject({ details: { scope: 'process', waiting: 3 }, retryAfterSeconds: 1 });
      held.pop()!.leave();
      const later = await waits.enter('tenant_c');
      expect(waits.parked).toBe(3);
      later.leave();
      for (const wait of held) wait.leave();
      expect(waits.parked).toBe(0);
    } finally {
      await waits.onModuleDestroy();
    }
  });

  it("wakes only the named tenants' waits, and ends every wait at shutdown", async () => {
    const waits = new PgEventFeedWaits(testDatabaseUrl(), testLogger(), { perTenant: 10, perProcess: 100 });
    const a = await waits.enter('tenant_a');
    const b = await waits.enter('tenant_b');
    const woken = a.next(20_000);
    const other = b.next(300);
    await notify('tenant_a,tenant_x');
    expect(await woken).toBe(true);
    expect(await other).toBe(false);
    // Whether it lands before `next` (latched) or during it, a tenant's signal wakes its wait.
    await notify('tenant_b');
    expect(await b.next(20_000)).toBe(true);
    // `*` (too many tenants to name) wakes every wait; b's, not waiting yet, is kept for its next.
    await notify('*');
    expect(await a.next(20_000)).toBe(true);
    expect(await b.next(20_000)).toBe(true);
    const parked = b.next(20_000);
    await waits.onModuleDestroy();
    expect(await parked).toBe(false);
    a.leave();
    b.leave();
  });

  it('wakes parked reads when its connection stops answering, polls meanwhile, and listens again on a new one', async () => {
    const target = new URL(testDatabaseUrl());
    const proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
    await proxy.start();
    const through = new URL(target);
    through.port = String(proxy.port);
    const logged: string[] = [];
    const waits = new PgEventFeedWaits(through.toString(), testLogger(logged), { perTenant: 10, perProcess: 100 }, { heartbeatMs: 100, timeoutMs: 300 });
    try {
      const a = await waits.enter('tenant_a');
      // Parked while the listener is live: it would sleep to its deadline unless woken.
      const parked = a.next(60_000);
      proxy.freeze();
      expect(await parked).toBe(true);
      // Deaf meanwhile, or back already: either way a wait does not sleep to its deadline.
      const started = Date.now();
      expect(await a.next(60_000)).toBe(true);
      expect(Date.now() - started).toBeLessThan(5_000);
      // Listening again on a new connection: a notification wakes the parked read.
      while (!waits.listening) await a.next(100);
      await a.next(0);
      const next = a.next(20_000);
      await notify('tenant_a');
      expect(await next).toBe(true);
      expect(logged.some((line) => line.includes('stopped answering'))).toBe(true);
      a.leave();
    } finally {
      await waits.onModuleDestroy();
      await proxy.stop();
    }
  }, 30_000);
});
