import { DelayedError } from 'bullmq';
import { DeliverWebhook } from '../../application/webhook/deliver-webhook.use-case';
import type { DeliveryJobData } from '../../application/webhook/delivery.ports';
import type { InFlightLimits } from '../../application/webhook/in-flight-limits';
import type { Logger } from '../../application/shared/logger';
import type { Metrics } from '../../application/shared/metrics';

/**
 * A job whose tenant or endpoint is at its cap waits up to AT_CAP_WAIT_MS in the worker for a
 * slot of theirs while their attempts are finishing (a busy receiver that answers); when none
 * finished for a second (receivers that hang), or the wait ends, it goes back to the queue for
 * AT_CAP_DELAY_MS to AT_CAP_DELAY_MS × 2, long enough not to spin.
 */
const AT_CAP_WAIT_MS = 500;
const AT_CAP_DELAY_MS = 250;

export interface DeliveryJobHandle {
  data: DeliveryJobData;
  moveToDelayed(timestamp: number, token?: string): Promise<void>;
}

/**
 * The driving adapter for delivery jobs: one job, one attempt. A job whose tenant or endpoint
 * has its cap of attempts in flight, and gets no slot of theirs within AT_CAP_WAIT_MS, goes back
 * to the queue for a moment, untouched in PostgreSQL, so that receivers that hang cannot take
 * every slot. Every log line names the event,
 * subscription and attempt, and never the secret or the body.
 */
export function deliveryProcessor(deliver: DeliverWebhook, logger: Logger, limits: InFlightLimits, metrics?: Metrics) {
  return async (job: DeliveryJobHandle, token?: string): Promise<string> => {
    const release = await limits.acquire(job.data.tenantId, job.data.endpoint, AT_CAP_WAIT_MS);
    if (!release) {
      await job.moveToDelayed(Date.now() + AT_CAP_DELAY_MS + Math.floor(Math.random() * AT_CAP_DELAY_MS), token);
      throw new DelayedError();
    }
    let report;
    try {
      report = await deliver.execute({ deliveryId: job.data.deliveryId, attempt: job.data.attempt });
    } finally {
      release();
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
    return report.outcome;
  };
}
