import { MikroORM } from '@mikro-orm/postgresql';
import { keyCacheHeld, registerKeyCacheHolder } from '../../src/infrastructure/persistence/api-keys/key-cache-holders';
import { isolatedDatabase } from '../support/isolated-database';
import { openTestOrm, sqlIn } from '../support/database';
import { testLogger } from '../support/silent-logger';

// The holders of the Redis key cache (api_key_cache_holders): a killed API process leaves its row
// behind; the next process that starts deletes rows an hour old, never one that may still hold.
let orm: MikroORM;
let database: Awaited<ReturnType<typeof isolatedDatabase>>;
beforeAll(async () => {
  // Its own database: the test counts every holder row.
  database = await isolatedDatabase();
  orm = await openTestOrm(database.url);
});
afterAll(async () => {
  await orm.close(true);
  await database.drop();
});

describe('key cache holders', () => {
  it('a start removes the rows of processes gone an hour ago, keeps recent ones, and a clean stop removes its own', async () => {
    await sqlIn(orm, `INSERT INTO api_key_cache_holders (holder, seen_at) VALUES ('killed long ago', now() - interval '2 hours'), ('killed a minute ago', now() - interval '1 minute')`);
    const registered = await registerKeyCacheHolder(orm, testLogger());
    const holders = async () => (await sqlIn<{ holder: string }>(orm, 'SELECT holder FROM api_key_cache_holders ORDER BY holder')).map((r) => r.holder);
    expect(await holders()).toEqual(['killed a minute ago', registered.holder].sort());
    expect(await keyCacheHeld(orm)).toBe(true);
    await registered.stop();
    expect(await holders()).toEqual(['killed a minute ago']);
  });
});
