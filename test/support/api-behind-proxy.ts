import { openTestOrm } from './database';
import { TcpProxy } from './tcp-proxy';
import { testDatabaseUrl } from './test-database-url';
import { startTestApp, TestApp } from './test-app';

/**
 * The API reaching PostgreSQL through a loopback proxy that a test stops (every connection cut,
 * new ones refused) and starts again on the same port. `close` stops all of it.
 */
export async function apiBehindProxy(): Promise<{ t: TestApp; proxy: TcpProxy; close: () => Promise<void> }> {
  const target = new URL(testDatabaseUrl());
  const proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
  await proxy.start();
  const viaProxy = new URL(target);
  viaProxy.host = `127.0.0.1:${proxy.port}`;
  const t = await startTestApp({ orm: await openTestOrm(viaProxy.toString()) });
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
