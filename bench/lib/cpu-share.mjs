// `node bench/lib/cpu-share.mjs [seconds]`: where the machine's CPU goes while a load runs, by
// process group (PostgreSQL backends, Redis, each node process by its script), as a share of one
// core, from /proc/<pid>/stat before and after. Used to find which process limits a run whose
// own process is not busy (the webhook drain: the worker was 25–31 % idle).
// Also imported by bench/run.mjs, which prints the CPU each delivery of the drain costs per group.
import { readdirSync, readFileSync } from 'node:fs';

const TICKS = 100; // USER_HZ on Linux

/** CPU ticks each live process has used so far, with its group. */
export function snapshot() {
  const byPid = new Map();
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = Number(fields[11]) + Number(fields[12]); // utime + stime
      byPid.set(pid, { group: groupOf(pid, stat), ticks });
    } catch {
      // the process ended between the listing and the read
    }
  }
  return byPid;
}

function groupOf(pid, stat) {
  const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
  if (comm === 'postgres') {
    // Its title says what the process is: a client's backend, or autovacuum, the WAL writer…
    const title = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
    const role = /postgres: [^:]+: (.*)/.exec(title)?.[1] ?? 'postmaster';
    return `postgres: ${/^\S+ \S+ (127\.0\.0\.1|\[local\]|::1)/.test(role) ? 'client backends' : role.replace(/ \d+$/, '')}`;
  }
  if (comm.startsWith('redis')) return 'redis';
  const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  // Node names its main thread MainThread: told apart by the script it runs (and its argument).
  if (argv[0]?.endsWith('node')) {
    const script = argv.find((arg) => arg.endsWith('.js') || arg.endsWith('.mjs')) ?? 'node';
    const role = argv[argv.indexOf(script) + 1] ?? '';
    return `node ${script.split("/").slice(-2).join("/")} ${role} (pid ${pid})`.replace("  ", " ");
  }
  return comm;
}

/**
 * CPU ticks of one process by thread name (Node's MainThread, V8's collector and compiler threads
 * `V8Worker`, libuv's pool…), for a split that a CPU profile, which samples the main thread only,
 * cannot give: a change that makes the collector's threads work harder shows only here.
 */
export function threadTicks(pid) {
  const byName = new Map();
  let tasks = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return byName; // the process has ended
  }
  for (const tid of tasks) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      byName.set(name, (byName.get(name) ?? 0) + Number(fields[11]) + Number(fields[12]));
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return byName;
}

/** CPU seconds of V8's helper threads (`V8Worker`) between two threadTicks of one process. */
export function helperSecondsBetween(before, after) {
  return ((after.get('V8Worker') ?? 0) - (before.get('V8Worker') ?? 0)) / TICKS;
}

/**
 * CPU seconds each group used between two snapshots, largest first. Counted per process: one that
 * ended in between is left out (its last ticks are gone with it) rather than making its group's
 * sum go down.
 */
export function cpuSecondsBetween(before, after) {
  const byGroup = new Map();
  for (const [pid, { group, ticks }] of after) byGroup.set(group, (byGroup.get(group) ?? 0) + ticks - (before.get(pid)?.ticks ?? 0));
  return [...byGroup.entries()].map(([group, ticks]) => [group, ticks / TICKS]).sort((x, y) => y[1] - x[1]);
}

if (import.meta.url === `file://${process.argv[1]}`) await main(Number(process.argv[2] ?? 10));

async function main(seconds) {
const before = snapshot();
const cpuBefore = readFileSync('/proc/stat', 'utf8').split('\n')[0];
await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
const after = snapshot();
const cpuAfter = readFileSync('/proc/stat', 'utf8').split('\n')[0];

const rows = cpuSecondsBetween(before, after)
  .map(([group, used]) => [group, used / seconds])
  .filter(([, share]) => share >= 0.005);
const total = (line) => line.split(/\s+/).slice(1).map(Number);
const [b, a] = [total(cpuBefore), total(cpuAfter)];
const all = a.reduce((s, v) => s + v, 0) - b.reduce((s, v) => s + v, 0);
const idle = a[3] + a[4] - b[3] - b[4];
const steal = (a[7] ?? 0) - (b[7] ?? 0);
console.log(`over ${seconds} s, in cores (2 = the whole machine): idle ${((idle / all) * 2).toFixed(2)}, steal ${((steal / all) * 2).toFixed(2)}`);
for (const [group, share] of rows) console.log(`${share.toFixed(2).padStart(6)}  ${group}`);
}
