import { EventEmitter, once } from 'node:events';
import { createServer, connect, Server, Socket } from 'node:net';

/**
 * A loopback TCP proxy in front of PostgreSQL, so a test can take the database away from the
 * API (every connection cut, new ones refused) and give it back, without touching the server.
 */
export class TcpProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private held: Socket[] | undefined;
  private readonly events = new EventEmitter();
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  /** Listens (again) on `port`, 0 for a free one; does nothing while already listening. */
  async start(port = 0): Promise<void> {
    if (this.server?.listening) return;
    this.server = createServer((client) => {
      if (this.held) {
        client.pause();
        this.held.push(client);
        this.events.emit('held', this.held.length);
        return;
      }
      this.forward(client);
    });
    await new Promise<void>((done) => this.server!.listen(port, '127.0.0.1', done));
    this.port = (this.server.address() as { port: number }).port;
  }

  /**
   * A start line for processes: new connections wait, unanswered, until `release()`, so several
   * processes can be made to reach the database at the same moment.
   */
  hold(): void {
    this.held ??= [];
  }

  /** Resolves once `count` connections are waiting at the start line. */
  async heldAtLeast(count: number): Promise<void> {
    while ((this.held?.length ?? 0) < count) await once(this.events, 'held');
  }

  /** Lets every waiting connection through at once, and new ones straight through. */
  release(): void {
    const waiting = this.held ?? [];
    this.held = undefined;
    for (const client of waiting) this.forward(client);
  }

  /**
   * As one TCP connection would be: when either side closes or fails, the other is closed too, so
   * a killed process's session ends in PostgreSQL (and its locks go) as it would without a proxy.
   */
  private forward(client: Socket): void {
    const upstream = connect(this.targetPort, this.targetHost);
    const pair = [client, upstream];
    for (const socket of pair) {
      this.sockets.add(socket);
      socket.on('error', () => socket.destroy());
      socket.once('close', () => {
        this.sockets.delete(socket);
        for (const other of pair) other.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  }

  /**
   * A silent cut, as a network partition is: every open connection stays open but nothing more
   * passes on it either way, and neither end is told. New connections pass as before.
   */
  freeze(): void {
    for (const socket of this.sockets) socket.pause();
  }

  /** Cuts every open connection and stops listening. */
  async stop(): Promise<void> {
    for (const socket of [...this.sockets, ...(this.held ?? [])]) socket.destroy();
    await new Promise<void>((done) => this.server?.close(() => done()) ?? done());
  }
}
