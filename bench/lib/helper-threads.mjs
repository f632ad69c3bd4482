// Moves a Node process's V8 helper threads (the "V8Worker" pool: concurrent marking, parallel
// scavenges, TurboFan compiles) onto another core, leaving its JavaScript thread and libuv's pool
// where they are. On a core of its own a process's "background" GC and compiler are not in the
// background: the kernel shares that core between the JavaScript thread and up to four helpers,
// and requests queue while they run (30–78 % of the API's core in its slow windows, measured with
// the scheduler's statistics, docs/performance-analysis.md). On any machine with more than one
// core they run beside the JavaScript thread, which is what they are made for.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export const HELPER_THREAD_NAMES = ['V8Worker'];

/** Returns how many threads were moved (0 when taskset is refused or the process is gone). */
export function moveHelperThreads(pid, core) {
  let moved = 0;
  let tasks = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return 0;
  }
  for (const tid of tasks) {
    let name = '';
    try {
      name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
    } catch {
      continue;
    }
    if (!HELPER_THREAD_NAMES.includes(name)) continue;
    if (spawnSync('taskset', ['-p', '-c', String(core), tid], { stdio: 'ignore' }).status === 0) moved++;
  }
  return moved;
}
