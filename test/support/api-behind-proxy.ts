import { openTestOrm } from './database';
import { proxiedTestDatabase } from './proxied-test-database';
import type { TcpProxy } from './tcp-proxy';
import { startTestApp, TestApp } from './test-app';

/**
 * The API reaching PostgreSQL through a loopback proxy that a test stops (every connection cut,
 * new ones refused) and starts again on the same port. `close` stops all of it.
 */
export async function apiBehindProxy(): Promise<{ t: TestApp; proxy: TcpProxy; close: () => Promise<void> }> {
  const { proxy, url } = await proxiedTestDatabase();
  const t = await startTestApp({ orm: await openTestOrm(url) });
  return {
    t,
    proxy,
    close: async () => {
      await t.close();
      await t.orm.close(true);
      await proxy.stop();
    },
  };
}
