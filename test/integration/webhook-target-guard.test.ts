import { createServer, Server } from 'node:net';
import { HttpWebhookSender, TARGET_UNREACHABLE } from '../../src/infrastructure/webhooks/http-webhook.sender';
import { startDnsServer } from '../support/dns-server';

// The connect-time guard, proven on loopback only: with private targets not allowed, a local
// listener on 127.0.0.1 and ::1 must receive not even a TCP connection.
describe('webhook sender address guard', () => {
  const servers: Server[] = [];
  let connections = 0;
  let port = 0;

  beforeAll(async () => {
    const v4 = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((done) => v4.listen(0, '127.0.0.1', done));
    port = (v4.address() as { port: number }).port;
    const v6 = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((done) => v6.listen(port, '::1', done));
    servers.push(v4, v6);
  });
  afterAll(() => Promise.all(servers.map((s) => new Promise((done) => s.close(done)))));

  const guarded = new HttpWebhookSender({ timeoutMs: 2000, allowPrivateTargets: false, connections: 4 });
  afterAll(() => guarded.close());

  it.each(['127.0.0.1', '[::1]', 'localhost', '[::ffff:127.0.0.1]', '127.1.2.3'])('refuses http://%s:<port> before connecting', async (host) => {
    const target = host === '127.1.2.3' ? `http://${host}:1/hooks` : `http://${host}:${port}/hooks`;
    const result = await guarded.send({ url: target, body: '{}', headers: { 'content-type': 'application/json' } });
    expect(result.statusCode).toBeNull();
    // The tenant's log says as much for a forbidden target as for a name that does not resolve;
    // which class refused it is the operator's detail.
    expect(result.error).toBe(TARGET_UNREACHABLE);
    expect(result.detail).toMatch(/^forbidden target address for .+ \((loopback)\)$/);
    expect(connections).toBe(0);
  });

  it('connects when private targets are allowed (the override tests and development use)', async () => {
    const open = new HttpWebhookSender({ timeoutMs: 2000, allowPrivateTargets: true, connections: 1 });
    try {
      const result = await open.send({ url: `http://127.0.0.1:${port}/hooks`, body: '{}', headers: {} });
      expect(result.statusCode).toBeNull();
      expect(result.error).toMatch(/^connection failed/);
      expect(connections).toBe(1);
    } finally {
      await open.close();
    }
  });

  it('tells the tenant the same for an internal name as for one that does not exist', async () => {
    // A name server on loopback: `internal.corp.test` resolves to a loopback address (a name of
    // the operator's network), `nothing.corp.test` does not exist.
    const dns = await startDnsServer({ 'internal.corp.test': '127.0.0.9' });
    const connectionsBefore = connections;
    const sender = new HttpWebhookSender({ timeoutMs: 2000, allowPrivateTargets: false, connections: 2, dns: { servers: [`127.0.0.1:${dns.port}`], timeoutMs: 1000, tries: 1 } });
    try {
      const internal = await sender.send({ url: `http://internal.corp.test:${port}/hooks`, body: '{}', headers: {} });
      const missing = await sender.send({ url: `http://nothing.corp.test:${port}/hooks`, body: '{}', headers: {} });
      expect([internal.error, missing.error]).toEqual([TARGET_UNREACHABLE, TARGET_UNREACHABLE]);
      expect(internal.detail).toBe('forbidden target address for internal.corp.test (loopback)');
      expect(missing.detail).toBe('no address for nothing.corp.test');
      expect(connections).toBe(connectionsBefore);
    } finally {
      await sender.close();
      await dns.close();
    }
  });
});
