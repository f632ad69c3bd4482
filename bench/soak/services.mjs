// The service under soak: the built API and worker (dist/main.js) as separate processes, as
// production runs them under a supervisor (one that exits on its own is started again), with the
// peak RSS of each role kept across restarts (a killed worker's successor adds to the same role).
import { spawn } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { lastWords } from './options.mjs';

const ROOT = join(import.meta.dirname, '..', '..');
// The same memory settings as `npm start` (package.json): the RSS reported is what production sees.
const NODE_FLAGS = ['--max-old-space-size=256', '--max-semi-space-size=16', '--no-allocation-site-pretenuring'];

/** Peak resident memory of a live process (VmHWM), in bytes; 0 once it is gone. */
export function peakRss(pid) {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

export class SoakServices {
  constructor(env) {
    this.env = env;
    this.children = new Map();
    // Every process started and not yet exited: what stop() ends, whatever the map holds by then.
    this.alive = new Set();
    this.peaks = { api: 0, worker: 0 };
    this.exits = [];
    this.restarts = [];
    this.started = 0;
    this.stopping = false;
    this.sampler = setInterval(() => this.sample(), 250);
  }

  sample() {
    for (const [role, child] of this.children) this.peaks[role] = Math.max(this.peaks[role], peakRss(child.pid));
  }

  start(role) {
    // One process a role: a restart after an exit and a kill's successor can both be due at once
    // (the worker exited on its own just before a chaos kill); the second start found the first's
    // process running, and that one was left behind when the soak ended.
    if (this.children.has(role)) return this.children.get(role);
    // SOAK_LOGS=<folder>: each process's log lines (at SOAK_LOG_LEVEL, default info) in a file of its own.
    const logs = process.env.SOAK_LOGS;
    const out = logs ? openSync(join(logs, `${role}-${++this.started}.log`), 'w') : 'ignore';
    const child = spawn(process.execPath, [...NODE_FLAGS, join(ROOT, 'dist', 'main.js')], {
      cwd: ROOT,
      env: { ...process.env, ...this.env, SERVICE_ROLE: role, PORT: role === 'api' ? this.env.PORT : '0', ...(logs && { LOG_LEVEL: process.env.SOAK_LOG_LEVEL ?? 'info' }) },
      stdio: ['ignore', out, 'pipe'],
    });
    let stderr = '';
    this.alive.add(child);
    child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
    child.once('exit', (code, signal) => {
      this.alive.delete(child);
      if (this.children.get(role) === child) this.children.delete(role);
      if (child.expectedExit) return;
      // As a process supervisor does (systemd, Kubernetes): a process that exits on its own (the
      // database was cut while it started, say) is started again a second later, and counted.
      this.exits.push({ role, code, signal, said: lastWords(stderr) });
      if (!this.stopping) this.restarts.push(setTimeout(() => this.stopping || this.children.has(role) || this.start(role), 1000));
    });
    this.children.set(role, child);
    return child;
  }

  /** Waits until the API answers /health/ready with 200. */
  async apiReady(baseUrl, timeoutMs = 60_000) {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      const status = await fetch(`${baseUrl}/health/ready`).then((r) => r.status, () => 0);
      if (status === 200) return;
      if (!this.children.has('api')) throw new Error(`the API exited: ${this.exits.at(-1)?.said ?? ''}`);
      await sleep(100);
    }
    throw new Error('the API did not become ready');
  }

  /**
   * The API again on another port: another process took the one chosen for it (between
   * freePort() and the API's listen, a parallel test can), so the API could not listen and what
   * answered there was not it.
   */
  async moveApi(port) {
    this.env.PORT = String(port);
    const api = this.children.get('api');
    if (api) {
      api.expectedExit = true;
      const exited = new Promise((done) => api.once('exit', done));
      api.kill('SIGTERM');
      await exited;
    }
    this.start('api');
  }

  /** kill -9 of the worker, and a new one after `ms`. */
  async killWorker(ms) {
    const worker = this.children.get('worker');
    if (worker) {
      this.sample();
      worker.expectedExit = true;
      const exited = new Promise((done) => worker.once('exit', done));
      worker.kill('SIGKILL');
      await exited;
    }
    await sleep(ms);
    this.start('worker');
  }

  async stop() {
    this.stopping = true;
    this.restarts.forEach(clearTimeout);
    clearInterval(this.sampler);
    this.sample();
    await Promise.all(
      [...this.alive].map((child) => {
        child.expectedExit = true;
        const exited = new Promise((done) => child.once('exit', done));
        child.kill('SIGTERM');
        const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
        return exited.finally(() => clearTimeout(force));
      }),
    );
  }
}
