import { createSocket, Socket } from 'node:dgram';
import { createServer, Server } from 'node:http';
import { HttpWebhookSender, TARGET_UNREACHABLE } from '../../src/infrastructure/webhooks/http-webhook.sender';

// The sender against receivers on 127.0.0.1 that misbehave, and a name server on 127.0.0.1 that
// never answers: nothing leaves the machine.

async function listen(server: Server): Promise<number> {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return (server.address() as { port: number }).port;
}

describe('HttpWebhookSender', () => {
  const servers: Server[] = [];
  afterAll(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    }
  });

  it('counts a 2xx that came in time as delivered, however slowly its body follows', async () => {
    const trickle = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => res.write('.'), 100);
      res.on('close', () => clearInterval(timer));
    });
    servers.push(trickle);
    const port = await listen(trickle);
    const sender = new HttpWebhookSender({ timeoutMs: 1000, allowPrivateTargets: true, connections: 2 });
    try {
      const started = Date.now();
      const result = await sender.send({ url: `http://127.0.0.1:${port}/hooks`, body: '{}', headers: {} });
      expect(result).toEqual({ statusCode: 200, durationMs: expect.any(Number), error: null });
      expect(result.durationMs).toBeLessThan(1000);
      // The body is given a second of its own, then dropped.
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await sender.close();
    }
  });

  it('drops a body past 64 KB by closing its connection, and keeps the connection of a body read to its end', async () => {
    let closed!: () => void;
    const endlessClosed = new Promise<void>((done) => (closed = done));
    const endless = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = 'x'.repeat(16 * 1024);
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      res.on('close', () => closed());
      pump();
    });
    const connections: unknown[] = [];
    const small = createServer((_req, res) => res.writeHead(204).end());
    small.on('connection', (socket) => connections.push(socket));
    servers.push(endless, small);
    const [endlessPort, smallPort] = [await listen(endless), await listen(small)];
    const sender = new HttpWebhookSender({ timeoutMs: 5000, allowPrivateTargets: true, connections: 2 });
    try {
      const cut = await sender.send({ url: `http://127.0.0.1:${endlessPort}/hooks`, body: '{}', headers: {} });
      expect(cut.statusCode).toBe(200);
      // The body was dropped: the receiver sees its answer's connection closed (else this waits past the test's timeout).
      await endlessClosed;
      // Bodies read to their end leave their connections open for the next attempts (two allowed here).
      for (let i = 0; i < 10; i++) expect((await sender.send({ url: `http://127.0.0.1:${smallPort}/hooks`, body: '{}', headers: {} })).statusCode).toBe(204);
      expect(connections.length).toBeLessThanOrEqual(2);
    } finally {
      await sender.close();
    }
  });

  it('reports no answer when the status does not come within the timeout', async () => {
    const silent = createServer(() => {});
    servers.push(silent);
    const port = await listen(silent);
    const sender = new HttpWebhookSender({ timeoutMs: 300, allowPrivateTargets: true, connections: 2 });
    try {
      expect(await sender.send({ url: `http://127.0.0.1:${port}/hooks`, body: '{}', headers: {} })).toEqual({ statusCode: null, durationMs: expect.any(Number), error: 'no answer within 300 ms' });
    } finally {
      await sender.close();
    }
  });

  it('resolves names off the thread pool: lookups a name server never answers delay no other delivery', async () => {
    const blackHole: Socket = createSocket('udp4');
    let queries = 0;
    blackHole.on('message', () => queries++);
    await new Promise<void>((done) => blackHole.bind(0, '127.0.0.1', done));
    const dnsPort = blackHole.address().port;
    let answered = 0;
    const receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        answered++;
        res.writeHead(204).end();
      });
    });
    servers.push(receiver);
    const port = await listen(receiver);
    const sender = new HttpWebhookSender({ timeoutMs: 5000, allowPrivateTargets: true, connections: 20, dns: { servers: [`127.0.0.1:${dnsPort}`], timeoutMs: 1500, tries: 1 } });
    try {
      // More stuck lookups than libuv's thread pool has threads (4).
      let stuckEnded = 0;
      const stuck = Array.from({ length: 8 }, (_, i) => sender.send({ url: `http://hook-${i}.never-answers.test/x`, body: '{}', headers: {} }).finally(() => stuckEnded++));
      const started = Date.now();
      const others = await Promise.all([
        sender.send({ url: `http://localhost:${port}/hooks`, body: '{}', headers: {} }),
        sender.send({ url: `http://127.0.0.1:${port}/hooks`, body: '{}', headers: {} }),
      ]);
      const othersMs = Date.now() - started;
      expect(others.map((r) => r.statusCode)).toEqual([204, 204]);
      // Both were delivered while every stuck lookup was still waiting for its name server.
      expect(stuckEnded).toBe(0);
      const results = await Promise.all(stuck);
      expect(results.map((r) => r.error)).toEqual(Array(8).fill(TARGET_UNREACHABLE));
      expect(results.map((r) => r.detail)).toEqual(Array.from({ length: 8 }, (_, i) => `no DNS answer for hook-${i}.never-answers.test in time`));
      expect(queries).toBeGreaterThanOrEqual(8);
      expect(answered).toBe(2);
      process.stdout.write(`dns: 8 lookups unanswered by the name server; localhost and 127.0.0.1 deliveries took ${othersMs} ms meanwhile\n`);
    } finally {
      await sender.close();
      blackHole.close();
    }
  });
});
