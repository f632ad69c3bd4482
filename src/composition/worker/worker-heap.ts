import { setFlagsFromString } from 'node:v8';

/**
 * The worker process's old generation may grow by 60 % of its live size before a full collection.
 *
 * Under `--max-old-space-size=256` (`npm start`, decisions.md 44) V8 lets a heap that small grow
 * by about a third. A draining worker promotes some 30 MB a second: what is in flight at a
 * scavenge (attempts, the relay's round, the jobs being handed out) reaches the old generation
 * and dies there. So it ran a mark-compact about every 0.6 s, and their marking was most of the
 * collector's helper threads' time. Twice the room cut the helpers' CPU a delivery by a third and
 * cost 40–50 MB of resident memory; 60 % keeps most of the gain for 15–20 MB (decisions.md 153).
 *
 * V8 reads the flag each time it sets the next limit, so it applies from the next collection on.
 * Only a worker process sets it: the API's resident size has a bound of its own (decisions.md 44).
 */
const WORKER_HEAP_FLAGS = '--heap-growing-percent=60';

export function tuneWorkerHeap(): void {
  setFlagsFromString(WORKER_HEAP_FLAGS);
}
