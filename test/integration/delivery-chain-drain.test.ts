import { MikroORM } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import { newTypeId } from '../../src/domain/shared/type-id';
import { DecryptedSecrets } from '../../src/infrastructure/crypto/decrypted-secrets';
import { SecretCipher } from '../../src/infrastructure/crypto/secret-cipher';
import { createOrmConfig } from '../../src/infrastructure/persistence/connection/mikro-orm.config';
import { SqlDeliveryTurns } from '../../src/infrastructure/persistence/webhooks/sql-delivery-turns.store';
import { isolatedDatabase } from '../support/isolated-database';

// Issue 70: draining an ordered chain costs the same per link whatever its length. A page with
// 10,000 versions waiting; each link is what the worker does when a delivery ends: pass the turn
// on (under the page's lock, to the lowest version waiting), and that one is delivered in turn.
// The turn goes to each version once, in order; the time of each thousand links is printed (the
// first and the last thousand alike: a read that grew with the chain made the drain quadratic).
const CHAIN = 10_000;

describe('an ordered chain drained', () => {
  it('passes the turn through 10,000 versions in order, each pass as cheap as the first', async () => {
    const db = await isolatedDatabase();
    const orm = await MikroORM.init(createOrmConfig(db.url, 4));
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    try {
      const [tenantId, subscriptionId, page] = [newTypeId('tenant'), newTypeId('whsub'), newTypeId('pagevar')];
      await pg.query(`INSERT INTO tenants (id, name, created_at) VALUES ($1, 't', now())`, [tenantId]);
      await pg.query(
        `INSERT INTO webhook_subscriptions (id, tenant_id, url, events, active, signing_secret_encrypted, created_at, updated_at, ordering)
         VALUES ($1, $2, 'http://127.0.0.1:9/hooks', '{page.version.created}', true, 'x', now(), now(), 'page')`,
        [subscriptionId, tenantId],
      );
      const events = Array.from({ length: CHAIN }, () => newTypeId('evt'));
      const ids = events.map(() => newTypeId('whdlv'));
      // Versions written in an order other than their number's: the turn follows the number.
      const seqs = events.map((_, i) => (i * 7919) % CHAIN);
      await pg.query(
        `INSERT INTO webhook_deliveries (id, tenant_id, subscription_id, event_id, event_type, status, attempt_count, created_at, updated_at, order_key, order_seq)
         SELECT d, $3, $4, e, 'page.version.created', 'waiting', 0, now(), now(), $5, s FROM unnest($1::text[], $2::text[], $6::int[]) AS x(d, e, s)`,
        [ids, events, tenantId, subscriptionId, page, seqs],
      );
      await pg.query('ANALYZE webhook_deliveries');
      const turns = new SqlDeliveryTurns(orm, new DecryptedSecrets(new SecretCipher(Buffer.alloc(32, 7))));
      const bySeq = new Map(ids.map((id, i) => [id, seqs[i]]));
      const passedTo: number[] = [];
      const perThousand: number[] = [];
      let started = performance.now();
      for (let link = 0; link < CHAIN; link++) {
        const job = await turns.passOn({ tenantId, subscriptionId, orderKey: page }, new Date());
        expect(job).not.toBeNull();
        passedTo.push(bySeq.get(job!.deliveryId)!);
        await pg.query(`UPDATE webhook_deliveries SET status = 'delivered', next_attempt_at = NULL, finished_at = now() WHERE id = $1 AND event_id = $2`, [job!.deliveryId, job!.eventId]);
        if ((link + 1) % 1000 === 0) {
          perThousand.push(Math.round(performance.now() - started));
          started = performance.now();
        }
      }
      expect(await turns.passOn({ tenantId, subscriptionId, orderKey: page }, new Date())).toBeNull();
      expect(passedTo).toEqual(Array.from({ length: CHAIN }, (_, i) => i));
      process.stdout.write(`ordered chain drain: ${CHAIN} links in ${(perThousand.reduce((a, b) => a + b, 0) / 1000).toFixed(1)} s; ms per thousand links, first to last: ${perThousand.join(', ')}\n`);
    } finally {
      await pg.end();
      await orm.close(true);
      await db.drop();
    }
  }, 180_000);
});
