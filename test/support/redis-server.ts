import { ChildProcess, spawn } from 'node:child_process';
import IORedis from 'ioredis';
import { freePort } from './ports';
import type { TestCertificates } from './test-certificates';

/** How a private Redis is reached: an ACL user with a password, and TLS only. */
export interface RedisAccess {
  user?: { name: string; password: string };
  tls?: TestCertificates;
}

/** A private redis-server on a free loopback port, that a test may stop and start again. */
export class PrivateRedis {
  private child?: ChildProcess;
  port = 0;

  constructor(private readonly access: RedisAccess = {}) {}

  /** Its URL with the credentials: rediss:// when it speaks TLS only. */
  get url(): string {
    const user = this.access.user ? `${encodeURIComponent(this.access.user.name)}:${encodeURIComponent(this.access.user.password)}@` : '';
    return `${this.access.tls ? 'rediss' : 'redis'}://${user}127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (this.port === 0) this.port = await freePort();
    const { user, tls } = this.access;
    const listen = tls
      ? ['--port', '0', '--tls-port', String(this.port), '--tls-cert-file', tls.certFile, '--tls-key-file', tls.keyFile, '--tls-ca-cert-file', tls.caFile, '--tls-auth-clients', 'no']
      : ['--port', String(this.port)];
    // The default user is turned off: only the named user, with its password, gets in.
    const users = user ? ['--user', 'default', 'off', '--user', user.name, 'on', `>${user.password}`, '~*', '&*', '+@all'] : [];
    this.child = spawn('redis-server', [...listen, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...users], { stdio: 'ignore' });
    const client = new IORedis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => 50, ...(tls && { tls: { ca: tls.ca } }) });
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
