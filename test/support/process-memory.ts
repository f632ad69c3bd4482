import { readFileSync } from 'node:fs';

/** A process's resident memory now (MB), as the kernel counts it. */
export function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}
