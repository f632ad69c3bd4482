import { DelayedError } from 'bullmq';
import { DeliverWebhook, DeliveryAttemptReport } from '../../application/webhook/deliver-webhook.use-case';
import { attemptsOf, DeliveryJobData, DueAttempt } from '../../application/webhook/delivery.ports';
import type { InFlightLimits } from '../../application/webhook/in-flight-limits';
import type { Logger } from '../../application/shared/logger';
import type { Metrics } from '../../application/shared/metrics';

/**
 * An attempt whose worker, tenant or endpoint is at its cap waits up to AT_CAP_WAIT_MS in the
 * worker for a slot while attempts there are finishing (a busy receiver that answers); when none
 * finished for a second (receivers that hang), or the wait ends, it goes back to the queue for
 * AT_CAP_DELAY_MS to AT_CAP_DELAY_MS × 2, long enough not to spin.
 */
const AT_CAP_WAIT_MS = 500;
const AT_CAP_DELAY_MS = 250;

export interface DeliveryJobHandle {
  data: DeliveryJobData;
  moveToDelayed(timestamp: number, token?: string): Promise<void>;
  updateData(data: DeliveryJobData): Promise<void>;
}

/**
 * The driving adapter for delivery jobs. A job carries one or several attempts of one tenant to
 * one endpoint; they run side by side, each in a slot of the worker's caps (InFlightLimits). An
 * attempt that gets no slot within AT_CAP_WAIT_MS is handed back: once the job's other attempts
 * have finished, the job goes back to the queue for a moment with only the attempts handed back,
 * untouched in PostgreSQL, so that receivers that hang cannot take every slot. Every log line
 * names the event, subscription and attempt, and never the secret or the body.
 */
export function deliveryProcessor(deliver: DeliverWebhook, logger: Logger, limits: InFlightLimits, metrics?: Metrics) {
  const attemptOne = async (data: DeliveryJobData, due: DueAttempt): Promise<DeliveryAttemptReport | 'handed back'> => {
    const release = await limits.acquire(data.tenantId, data.endpoint, AT_CAP_WAIT_MS);
    if (!release) return 'handed back';
    let report;
    try {
      report = await deliver.execute(due);
    } finally {
      release();
    }
    observe(report, logger, metrics);
    return report;
  };

  return async (job: DeliveryJobHandle, token?: string): Promise<string> => {
    const attempts = attemptsOf(job.data);
    const settled = await Promise.allSettled(attempts.map((due) => attemptOne(job.data, due)));
    const handedBack = attempts.filter((_, i) => settled[i].status === 'fulfilled' && (settled[i] as PromiseFulfilledResult<unknown>).value === 'handed back');
    // An attempt that failed inside (database, Redis, a bug) fails the job: the sweeper finds its
    // delivery after one lease, as for a job of one attempt. Its neighbours are recorded already.
    const failed = settled.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (handedBack.length > 0 && !failed) {
      if (handedBack.length < attempts.length) await job.updateData({ tenantId: job.data.tenantId, endpoint: job.data.endpoint, attempts: handedBack });
      await job.moveToDelayed(Date.now() + AT_CAP_DELAY_MS + Math.floor(Math.random() * AT_CAP_DELAY_MS), token);
      throw new DelayedError();
    }
    if (failed) throw failed.reason;
    return settled.map((result) => ((result as PromiseFulfilledResult<DeliveryAttemptReport>).value).outcome).join(',');
  };
}

/** An attempt's metrics and log line. */
function observe(report: DeliveryAttemptReport, logger: Logger, metrics?: Metrics): void {
  if (report.outcome === 'put off') {
    // Not an attempt: the receiver's pace (its Retry-After, or its subscription's rate).
    logger.debug(report, 'webhook attempt put off');
    return;
  }
  if (report.outcome !== 'skipped' && report.outcome !== 'cancelled') {
    const statusClass = report.statusCode ? `${Math.floor(report.statusCode / 100)}xx` : 'none';
    metrics?.deliveryAttempt(report.outcome, statusClass, (report.durationMs ?? 0) / 1000);
  }
  if (report.subscriptionDisabled) {
    metrics?.subscriptionAutoDisabled();
    logger.warn({ subscriptionId: report.subscriptionId, eventId: report.eventId, deliveryId: report.deliveryId, attempt: report.attempt }, 'webhook subscription turned off: nothing got through for a whole retry schedule');
  }
  if (report.outcome !== 'skipped') {
    if (report.outcome === 'failed') logger.warn(report, 'webhook delivery failed for good');
    else logger.info(report, 'webhook attempt');
  }
}
