import type { Worker } from 'bullmq';
import type { Logger } from '../../application/shared/logger.port';
import { attemptIdsOf, DeliveryJobData } from '../../application/webhook/delivery/delivery-job';

/** Connection errors are logged at most this often: Redis being away makes one per reconnect try. */
const ERROR_LOG_EVERY_MS = 10_000;

/**
 * What the BullMQ worker of deliveries reports, logged: its connection's errors (unless it is
 * stopping), and attempts that failed inside. Such an attempt's job is gone (removeOnFail); the
 * delivery is still due in PostgreSQL, and the sweeper makes it a new job after one lease.
 */
export function logQueueWorkerEvents(worker: Worker<DeliveryJobData>, logger: Logger, stopping: () => boolean): void {
  let lastError = 0;
  worker.on('error', (error: Error) => {
    if (!stopping() && Date.now() - lastError > ERROR_LOG_EVERY_MS) logger.warn({ err: { message: error.message } }, 'delivery worker connection error');
    lastError = Date.now();
  });
  worker.on('failed', (job, error) =>
    logger.warn({ attempts: job ? attemptIdsOf(job.data) : [], err: { message: error.message } }, 'delivery attempt failed inside; the sweeper retries it after its lease'),
  );
}
