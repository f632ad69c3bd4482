import { ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import IORedis from 'ioredis';
import { freePort } from './ports';

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

  async start(masters = 3): Promise<void> {
    this.dir = await mkdtemp(join(tmpdir(), 'lp-redis-cluster-'));
    for (let i = 0; i < masters * 2; i++) {
      const port = await freePort();
      const child = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`, '--cluster-node-timeout', '1000',
          '--save', '', '--appendonly', 'no', '--dir', this.dir],
        { stdio: 'ignore' },
      );
      this.nodes.push({ port, child });
    }
    for (const node of this.nodes) await answering(node.port);
    await run('redis-cli', ['--cluster', 'create', ...this.nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-replicas', '1', '--cluster-yes'], { timeout: 30_000 });
    for (const node of this.nodes) await this.untilOk(node.port);
  }

  /** The nodes as REDIS_CLUSTER_NODES names them. */
  get env(): string {
    return this.nodes.map((n) => `127.0.0.1:${n.port}`).join(',');
  }

  get ports(): number[] {
    return this.nodes.map((n) => n.port);
  }

  /** The port of the master that serves `key` now. */
  async masterOf(key: string): Promise<number> {
    const client = new IORedis({ host: '127.0.0.1', port: this.alive()[0].port, lazyConnect: true });
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

  /** Resolves once every live node sees the cluster whole again (a replica took a dead master's slots). */
  async untilHealed(timeoutMs = 30_000): Promise<void> {
    for (const node of this.alive()) await this.untilOk(node.port, timeoutMs);
  }

  async stop(): Promise<void> {
    for (const node of this.nodes) await this.kill(node.port);
    this.nodes = [];
    if (this.dir) await rm(this.dir, { recursive: true, force: true });
  }

  private alive(): ClusterNode[] {
    return this.nodes.filter((n) => n.child.exitCode === null && n.child.signalCode === null);
  }

  private async untilOk(port: number, timeoutMs = 30_000): Promise<void> {
    const client = new IORedis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0 });
    client.on('error', () => {});
    const deadline = Date.now() + timeoutMs;
    try {
      await client.connect();
      for (;;) {
        const info = String(await client.call('CLUSTER', 'INFO'));
        if (info.includes('cluster_state:ok')) return;
        if (Date.now() > deadline) throw new Error(`cluster node ${port} not ok within ${timeoutMs} ms:\n${info}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      client.disconnect();
    }
  }
}

/** Resolves once a redis-server answers PING on `port`. */
async function answering(port: number): Promise<void> {
  const client = new IORedis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => 50 });
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
