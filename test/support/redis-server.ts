import { ChildProcess, spawn } from 'node:child_process';
import IORedis from 'ioredis';
import { freePort } from './ports';

/** A private redis-server on a free loopback port, that a test may stop and start again. */
export class PrivateRedis {
  private child?: ChildProcess;
  port = 0;

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (this.port === 0) this.port = await freePort();
    this.child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    const client = new IORedis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => 50 });
    client.on('error', () => {});
    for (let i = 0; i < 200; i++) {
      try {
        await client.connect();
        await client.ping();
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 25));
      }
    }
    client.disconnect();
  }

  /** Stops the server; it kept nothing on disk, so a restart begins empty (data lost). */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((done) => {
      child.once('exit', () => done());
      child.kill('SIGKILL');
    });
  }
}
