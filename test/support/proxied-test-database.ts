import { TcpProxy } from './tcp-proxy';
import { testDatabaseUrl } from './test-database-url';

/**
 * The test database behind a loopback proxy that a test stops (every connection cut, new ones
 * refused) and starts again on the same port: the proxy, started, and the URL that goes through it.
 */
export async function proxiedTestDatabase(): Promise<{ proxy: TcpProxy; url: string }> {
  const target = new URL(testDatabaseUrl());
  const proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
  await proxy.start();
  const viaProxy = new URL(target);
  viaProxy.host = `127.0.0.1:${proxy.port}`;
  return { proxy, url: viaProxy.toString() };
}
