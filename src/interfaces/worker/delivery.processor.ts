import { DeliverWebhook } from '../../application/webhook/deliver-webhook.use-case';
import type { DeliveryBatchJobData, DeliveryJobData } from '../../application/webhook/delivery.ports';
import type { Logger } from '../../application/shared/logger';
import type { Metrics } from '../../application/shared/metrics';
import { AttemptSlots } from './attempt-slots';

export type DeliveryJobPayload = DeliveryJobData | DeliveryBatchJobData;

/** The attempts a job carries: one, or a batch of attempts that were due when it was made. */
export function attemptsOf(data: DeliveryJobPayload): DeliveryJobData[] {
  return 'attempts' in data ? data.attempts : [data];
}

/**
 * The driving adapter for delivery jobs: each attempt a job carries runs on its own (a batch's
 * attempts concurrently, within the process's attempt slots). Every log line names the event,
 * subscription and attempt, and never the secret or the body.
 */
export function deliveryProcessor(deliver: DeliverWebhook, logger: Logger, slots: AttemptSlots, metrics?: Metrics) {
  const attempt = async (data: DeliveryJobData): Promise<string> => {
    const report = await deliver.execute({ deliveryId: data.deliveryId, attempt: data.attempt });
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
    return report.outcome;
  };
  return async (job: { data: DeliveryJobPayload }): Promise<string> => {
    const attempts = attemptsOf(job.data);
    if (attempts.length === 1) return slots.run(() => attempt(attempts[0]));
    // One attempt's failure (the database went away) must not stop the others; the job fails
    // afterwards so that it is logged, and the sweeper re-enqueues what was not recorded.
    const settled = await Promise.allSettled(attempts.map((data) => slots.run(() => attempt(data))));
    const failed = settled.filter((result) => result.status === 'rejected');
    if (failed.length > 0) throw new Error(`${failed.length} of ${attempts.length} attempts failed: ${String((failed[0] as PromiseRejectedResult).reason?.message ?? failed[0])}`);
    return settled.map((result) => (result as PromiseFulfilledResult<string>).value).join(',');
  };
}
