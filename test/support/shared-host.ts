import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * A host on 127.0.0.1 shared by several customers' hooks, told apart by path, as integration
 * platforms and gateways have them: paths under /hang/ read the request and never answer it;
 * any other path answers 204 at once, and its arrival time is noted.
 */
export class SharedHost {
  private server?: Server;
  open: ServerResponse[] = [];
  arrivals: { path: string; at: number; body: string }[] = [];
  port = 0;
  async start(): Promise<void> {
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      if (req.url?.startsWith('/hang/')) return void this.open.push(res);
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.arrivals.push({ path: req.url ?? '', at: Date.now(), body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((done) => this.server!.listen(0, '127.0.0.1', done));
    this.port = (this.server.address() as { port: number }).port;
  }
  url(path: string): string {
    return `http://127.0.0.1:${this.port}/${path}`;
  }
  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((done) => this.server?.close(() => done()) ?? done());
  }
}

