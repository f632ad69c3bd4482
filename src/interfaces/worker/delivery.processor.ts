import { DeliverWebhook } from '../../application/webhook/deliver-webhook.use-case';
import type { DeliveryJobData } from '../../application/webhook/delivery.ports';
import type { Logger } from '../../application/shared/logger';
import type { Metrics } from '../../application/shared/metrics';

/**
 * The driving adapter for delivery jobs: one job, one attempt. Every log line names the event,
 * subscription and attempt, and never the secret or the body.
 */
export function deliveryProcessor(deliver: DeliverWebhook, logger: Logger, metrics?: Metrics) {
  return async (job: { data: DeliveryJobData }): Promise<string> => {
    const report = await deliver.execute({ deliveryId: job.data.deliveryId, attempt: job.data.attempt });
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
}
