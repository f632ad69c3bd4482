import type { Worker } from 'bullmq';
import type { Logger } from '../../application/shared/logger.port';
import type { Disposable } from '../../infrastructure/queue/bullmq-factory';

/**
 * A BullMQ worker that is replaced when it stops on its own: BullMQ gives up on a connection whose
 * start failed (Redis went away during it), and nothing would take jobs again. The replacement
 * comes a second later, the ended one is disposed of once it is running.
 */
export function superviseWorker<T>(launch: () => Disposable<Worker<T>>, logger: Logger): { stop(): Promise<void> } {
  let stopping = false;
  let restart: NodeJS.Timeout | undefined;
  let current: Disposable<Worker<T>>;
  const start = (): Disposable<Worker<T>> => {
    const made = launch();
    made.value.run().then(
      () => relaunch(made, 'stopped'),
      (error: Error) => relaunch(made, error.message),
    );
    return made;
  };
  const relaunch = (ended: Disposable<Worker<T>>, reason: string) => {
    if (stopping || ended !== current) return;
    logger.warn({ reason }, 'delivery worker ended; starting a new one');
    restart = setTimeout(() => {
      if (stopping) return;
      current = start();
      void ended.dispose().catch(() => {});
    }, 1000);
  };
  current = start();
  return {
    stop: async () => {
      stopping = true;
      clearTimeout(restart);
      await current.dispose();
    },
  };
}
