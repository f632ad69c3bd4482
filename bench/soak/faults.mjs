// The soak's real faults, all on loopback: a TCP proxy in front of PostgreSQL that can be cut
// (every connection closed, new ones refused) and restored, and a private redis-server that can
// be restarted empty (it keeps nothing on disk).
import { spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export async function freePort() {
  const server = createServer();
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address();
  await new Promise((done) => server.close(done));
  return port;
}

/**
 * Pipes a client to its upstream, as one TCP connection would be: when either side closes or
 * fails, the other is closed too. A killed process's connection is reset by its kernel, and
 * PostgreSQL must see its session end (and its transaction's locks go), not a proxy that stays.
 */
export function forward(client, upstream, sockets) {
  const pair = [client, upstream];
  for (const socket of pair) {
    sockets.add(socket);
    socket.on('error', () => socket.destroy());
    socket.once('close', () => {
      sockets.delete(socket);
      for (const other of pair) other.destroy();
    });
  }
  client.pipe(upstream).pipe(client);
}

export class TcpProxy {
  constructor(targetHost, targetPort) {
    this.targetHost = targetHost;
    this.targetPort = targetPort;
    this.sockets = new Set();
    this.port = 0;
  }

  async start() {
    this.server = createServer((client) => forward(client, connect(this.targetPort, this.targetHost), this.sockets));
    await new Promise((done) => this.server.listen(this.port, '127.0.0.1', done));
    this.port = this.server.address().port;
  }

  /** Closes every connection and refuses new ones for `ms`, then listens again on the same port. */
  async cut(ms) {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((done) => this.server.close(() => done()));
    await sleep(ms);
    await this.start();
  }

  async stop() {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((done) => (this.server?.listening ? this.server.close(() => done()) : done()));
  }
}

export class PrivateRedis {
  constructor() {
    this.port = 0;
  }

  get url() {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start() {
    if (this.port === 0) this.port = await freePort();
    this.child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    // Ready when it accepts a connection and answers PING.
    for (let i = 0; i < 400; i++) {
      if (await pings(this.port)) return;
      await sleep(25);
    }
    throw new Error(`redis-server on port ${this.port} did not start`);
  }

  /** Kills the server (its data with it) and starts an empty one on the same port after `ms`. */
  async restart(ms) {
    await this.stop();
    await sleep(ms);
    await this.start();
  }

  async stop() {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise((done) => {
      child.once('exit', () => done());
      child.kill('SIGKILL');
    });
  }
}

function pings(port) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(500);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    for (const failure of ['error', 'timeout']) socket.once(failure, () => (socket.destroy(), resolve(false)));
  });
}
