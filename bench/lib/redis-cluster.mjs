// A Redis Cluster of 3 masters and 3 replicas on loopback for the run's cluster drain (issue 44):
// six redis-servers on free ports in a directory of their own, joined by redis-cli --cluster create.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

const answers = (port) =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => (socket.end(), resolve(true)));
    socket.on('error', () => resolve(false));
  });

/** Starts the cluster; `nodes` for REDIS_CLUSTER_NODES, `stop()` ends it and removes its files. */
export async function startRedisCluster(log) {
  const dir = await mkdtemp(join(tmpdir(), 'lp-bench-cluster-'));
  const nodes = [];
  for (let i = 0; i < 6; i++) {
    const port = await freePort();
    const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`,
      '--cluster-node-timeout', '5000', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
    nodes.push({ port, child });
  }
  for (const { port } of nodes) {
    for (let i = 0; i < 200 && !(await answers(port)); i++) await new Promise((r) => setTimeout(r, 25));
  }
  await run('redis-cli', ['--cluster', 'create', ...nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-replicas', '1', '--cluster-yes'], { timeout: 30_000 });
  for (const { port } of nodes) {
    for (let i = 0; ; i++) {
      const { stdout } = await run('redis-cli', ['-p', String(port), 'cluster', 'info']);
      if (stdout.includes('cluster_state:ok')) break;
      if (i > 600) throw new Error(`cluster node ${port} not ok`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  log(`  Redis Cluster of 3 masters and 3 replicas on ports ${nodes.map((n) => n.port).join(', ')}`);
  return {
    nodes: nodes.map((n) => `127.0.0.1:${n.port}`).join(','),
    pids: nodes.map((n) => n.child.pid),
    stop: async () => {
      await Promise.all(nodes.map(({ child }) => new Promise((done) => (child.exitCode !== null ? done() : (child.once('exit', done), child.kill('SIGKILL'))))));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
