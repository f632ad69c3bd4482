import { createServer, Server } from 'node:net';
import { HttpWebhookSender } from '../../src/infrastructure/webhooks/http-webhook.sender';

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
    expect(result.error).toMatch(/^forbidden target address for .+ \((loopback)\)$/);
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
});
