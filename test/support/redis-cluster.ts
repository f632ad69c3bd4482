import { ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import IORedis from 'ioredis';
import { freePort } from './ports';
import type { TestCertificates } from './test-certificates';

/** How the cluster is reached: `requirepass` (and `masterauth`) on every node, and TLS only (its bus too). */
export interface ClusterAccess {
  password?: string;
  tls?: TestCertificates;
}

const run = promisify(execFile);

/** One redis-server of the cluster. */
interface ClusterNode {
  port: number;
  child: ChildProcess;
}

/**
 * A private Redis Cluster on loopback: `masters` masters with one replica each, made by
 * `redis-cli --cluster create`, nothing kept on disk but its nodes' files (in a directory of its
 * own, removed by `stop`). A node's failure is noticed after 1 s (cluster-node-timeout), after
 * which its replica takes over. A test may kill any node with SIGKILL (`kill`).
 */
export class PrivateRedisCluster {
  private nodes: ClusterNode[] = [];
  private dir = '';

  constructor(private readonly access: ClusterAccess = {}) {}

  async start(masters = 3): Promise<void> {
    const { password, tls } = this.access;
    const listen = (port: number) =>
      tls
        ? ['--port', '0', '--tls-port', String(port), '--tls-cluster', 'yes', '--tls-replication', 'yes', '--tls-cert-file', tls.certFile, '--tls-key-file', tls.keyFile, '--tls-ca-cert-file', tls.caFile, '--tls-auth-clients', 'no']
        : ['--port', String(port)];
    const auth = password ? ['--requirepass', password, '--masterauth', password] : [];
    const cli = [...(password ? ['-a', password, '--no-auth-warning'] : []), ...(tls ? ['--tls', '--cacert', tls.caFile] : [])];
    this.dir = await mkdtemp(join(tmpdir(), 'lp-redis-cluster-'));
    for (let i = 0; i < masters * 2; i++) {
      const port = await freePort();
      const child = spawn(
        'redis-server',
        [...listen(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`, '--cluster-node-timeout', '1000',
          // A replica syncs at once (no diskless-sync wait of 5 s), so that a test may kill its master soon after the start.
          '--save', '', '--appendonly', 'no', '--repl-diskless-sync-delay', '0', '--dir', this.dir, ...auth],
        { stdio: 'ignore' },
      );
      this.nodes.push({ port, child });
    }
    for (const node of this.nodes) await answering(node.port, this.clientOptions);
    await run('redis-cli', [...cli, '--cluster', 'create', ...this.nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-replicas', '1', '--cluster-yes'], { timeout: 30_000 });
    for (const node of this.nodes) await this.untilOk(node.port);
    // A replica that never finished its first sync cannot take over from its master: a master
    // killed before then left its slots unserved for good (seen when a test killed one ~5 s in).
    for (const node of this.nodes) await this.untilReplicaSynced(node.port);
  }

  /** The nodes as REDIS_CLUSTER_NODES names them: URLs with the password (and rediss:) when it has them. */
  get env(): string {
    const { password, tls } = this.access;
    if (!password && !tls) return this.nodes.map((n) => `127.0.0.1:${n.port}`).join(',');
    const credentials = password ? `default:${encodeURIComponent(password)}@` : '';
    return this.nodes.map((n) => `${tls ? 'rediss' : 'redis'}://${credentials}127.0.0.1:${n.port}`).join(',');
  }

  /** What a client of one node needs to get in. */
  get clientOptions(): { password?: string; tls?: { ca: Buffer } } {
    return { ...(this.access.password && { password: this.access.password }), ...(this.access.tls && { tls: { ca: this.access.tls.ca } }) };
  }

  get ports(): number[] {
    return this.nodes.map((n) => n.port);
  }

  /** The port of the master that serves `key` now. */
  async masterOf(key: string): Promise<number> {
    const client = new IORedis({ host: '127.0.0.1', port: this.alive()[0].port, lazyConnect: true, ...this.clientOptions });
    try {
      await client.connect();
      const slot = Number(await client.call('CLUSTER', 'KEYSLOT', key));
      const ranges = (await client.call('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
      const range = ranges.find(([from, to]) => slot >= from && slot <= to);
      if (!range) throw new Error(`no master serves slot ${slot}`);
      return range[2][1];
    } finally {
      client.disconnect();
    }
  }

  /** Kills the node on `port` with SIGKILL; resolves once it has exited. */
  async kill(port: number): Promise<void> {
    const node = this.nodes.find((n) => n.port === port);
    if (!node || node.child.exitCode !== null || node.child.signalCode !== null) return;
    await new Promise<void>((done) => {
      node.child.once('exit', () => done());
      node.child.kill('SIGKILL');
    });
  }

  /**
   * Resolves once every live node sees the cluster whole again: every slot served by a live master
   * (a replica took a dead master's slots). Right after a kill the nodes still say `ok`: they have
   * not yet noticed the death (cluster-node-timeout), so the slots are checked, not the state alone.
   */
  async untilHealed(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const live = new Set(this.alive().map((n) => n.port));
    for (;;) {
      const masters = await this.slotMasters(this.alive()[0].port);
      if (masters.every((port) => live.has(port))) break;
      if (Date.now() > deadline) throw new Error(`slots still served by a dead master after ${timeoutMs} ms: ${masters.join(', ')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    for (const node of this.alive()) await this.untilOk(node.port, timeoutMs);
  }

  async stop(): Promise<void> {
    for (const node of this.nodes) await this.kill(node.port);
    this.nodes = [];
    if (this.dir) await rm(this.dir, { recursive: true, force: true });
  }

  /** The ports of the masters that serve the slots, as `port` sees them. */
  private async slotMasters(port: number): Promise<number[]> {
    const client = new IORedis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0, ...this.clientOptions });
    client.on('error', () => {});
    try {
      await client.connect();
      const ranges = (await client.call('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
      return ranges.map((range) => range[2][1]);
    } finally {
      client.disconnect();
    }
  }

  /** Resolves once the node, if a replica, has its master's data (link up); a master resolves at once. */
  private untilReplicaSynced(port: number): Promise<void> {
    return this.untilInfo(port, ['INFO', 'replication'], (info) => info.includes('role:master') || info.includes('master_link_status:up'), 'replica in sync');
  }

  private alive(): ClusterNode[] {
    return this.nodes.filter((n) => n.child.exitCode === null && n.child.signalCode === null);
  }

  private untilOk(port: number, timeoutMs = 30_000): Promise<void> {
    return this.untilInfo(port, ['CLUSTER', 'INFO'], (info) => info.includes('cluster_state:ok'), 'cluster node ok', timeoutMs);
  }

  /** Polls `command` on the node every 50 ms until `accept` holds, or throws naming `what` with the last answer. */
  private async untilInfo(port: number, command: [string, string], accept: (info: string) => boolean, what: string, timeoutMs = 30_000): Promise<void> {
    const client = new IORedis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0, ...this.clientOptions });
    client.on('error', () => {});
    const deadline = Date.now() + timeoutMs;
    try {
      await client.connect();
      for (;;) {
        const info = String(await client.call(...command));
        if (accept(info)) return;
        if (Date.now() > deadline) throw new Error(`${what} (${port}) not within ${timeoutMs} ms:\n${info}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      client.disconnect();
    }
  }
}

/** Resolves once a redis-server answers PING on `port`. */
async function answering(port: number, options: { password?: string; tls?: { ca: Buffer } }): Promise<void> {
  const client = new IORedis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => 50, ...options });
  client.on('error', () => {});
  try {
    for (let i = 0; i < 400; i++) {
      try {
        if (client.status !== 'ready') await client.connect();
        await client.ping();
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 25));
      }
    }
    throw new Error(`redis-server on ${port} did not answer`);
  } finally {
    client.disconnect();
  }
}
