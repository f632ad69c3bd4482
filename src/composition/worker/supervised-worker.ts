import type { Worker } from 'bullmq';
import type { Logger } from '../../application/shared/logger.port';
import type { Disposable } from '../../infrastructure/queue/bullmq-factory';

/**
 * What tells a worker that runs but takes nothing: its queue's jobs ready to go (`ready`), and how
 * many jobs it may hold at once (`concurrency`). Checked every `everyMs`.
 */
export interface StuckWatch {
  ready: () => Promise<number>;
  concurrency: number;
  everyMs?: number;
}

const STUCK_CHECK_MS = 5000;

/**
 * Wraps a worker's processor so that the watch hears of a job its processor handed back to the
 * queue (it threw): BullMQ fires neither `completed` nor `failed` for a job moved back to the
 * delayed set (DelayedError), and a count of held jobs that rose on `active` and fell only on
 * those reached the concurrency after that many hand-backs and switched the watch off for good.
 */
export type HeldJobsCounter = <A extends unknown[], R>(processor: (...args: A) => Promise<R>) => (...args: A) => Promise<R>;

/**
 * A BullMQ worker that is replaced when it stops on its own: BullMQ gives up on a connection whose
 * start failed (Redis went away during it), and nothing would take jobs again. The replacement
 * comes a second later, the ended one is disposed of once it is running.
 *
 * With `watch`, also one that runs and takes nothing: after a Redis Cluster's failover a worker's
 * blocking read can stay on the dead master, and the worker waits for ever with no error (BullMQ
 * issues #3088 and #3185; its maintainers advise replacing the worker). Such a worker is replaced
 * when, for a whole check interval, jobs were ready in its queue, it held fewer than it may, and
 * it took none.
 */
export function superviseWorker<T>(launch: (counted: HeldJobsCounter) => Disposable<Worker<T>>, logger: Logger, watch?: StuckWatch): { stop(): Promise<void> } {
  let stopping = false;
  let restart: NodeJS.Timeout | undefined;
  let current: Disposable<Worker<T>>;
  let lastTaken = Date.now();
  let held = 0;
  const start = (): Disposable<Worker<T>> => {
    let handedBack = () => {};
    const counted: HeldJobsCounter =
      (processor) =>
      async (...args) => {
        try {
          return await processor(...args);
        } catch (error) {
          if ((error as Error)?.name === 'DelayedError') handedBack();
          throw error;
        }
      };
    const made = launch(counted);
    lastTaken = Date.now();
    held = 0;
    made.value.on('active', () => {
      if (made !== current) return;
      lastTaken = Date.now();
      held++;
    });
    const finished = () => {
      if (made === current) held = Math.max(0, held - 1);
    };
    made.value.on('completed', finished);
    made.value.on('failed', finished);
    handedBack = finished;
    made.value.run().then(
      () => relaunch(made, 'stopped'),
      (error: Error) => relaunch(made, error.message),
    );
    return made;
  };
  const relaunch = (ended: Disposable<Worker<T>>, reason: string) => {
    if (stopping || ended !== current || restart) return;
    logger.warn({ reason }, 'delivery worker ended; starting a new one');
    restart = setTimeout(() => {
      restart = undefined;
      if (stopping) return;
      current = start();
      void ended.dispose().catch(() => {});
    }, 1000);
  };
  const everyMs = watch?.everyMs ?? STUCK_CHECK_MS;
  const check = watch
    ? setInterval(() => {
        const idleSince = lastTaken;
        const watched = current;
        if (stopping || held >= watch.concurrency || Date.now() - idleSince < everyMs) return;
        watch.ready().then(
          (ready) => {
            if (ready > 0 && watched === current && lastTaken === idleSince) relaunch(watched, `took no job for ${everyMs} ms while ${ready} were ready`);
          },
          () => {},
        );
      }, everyMs)
    : undefined;
  check?.unref();
  current = start();
  return {
    stop: async () => {
      stopping = true;
      clearTimeout(restart);
      clearInterval(check);
      await current.dispose();
    },
  };
}
