import { DelayedError } from 'bullmq';
import { DeliverWebhook } from '../../application/webhook/attempt/deliver-webhook.use-case';
import { FollowOn } from '../../application/webhook/attempt/attempt-input';
import { DeliveryAttemptReport } from '../../application/webhook/attempt/delivery-attempt-report';
import { attemptsOf, DeliveryJobData, DueAttempt } from '../../application/webhook/delivery/delivery-job';
import { DeliveryClaim } from '../../application/webhook/attempt/delivery-claim';
import { DirectAttemptSeal } from '../../application/webhook/attempt/direct-attempt-seal.port';
import type { AttemptSlot, InFlightLimits } from './in-flight-limits';
import type { Logger } from '../../application/shared/logger.port';
import type { Metrics } from '../../application/shared/metrics.port';

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
 * one endpoint; each takes a slot of the worker's caps (InFlightLimits) and then runs on its own:
 * the job ends once its attempts have their slots, not when the receivers answer. So the queue
 * jobs a worker holds are only those being handed out, and attempts waiting on slow receivers
 * (hundreds) hold no job: a receiver that hangs cannot stop the worker from taking the next
 * tenant's job. An attempt that gets no slot within AT_CAP_WAIT_MS is handed back: the job goes
 * back to the queue for a moment with only those attempts, untouched in PostgreSQL. PostgreSQL's
 * lease covers an attempt that is running: if it fails inside (database, Redis, a bug) or its
 * worker dies, the sweeper makes it a job again after the lease. Every log line names the event,
 * subscription and attempt, and never the secret or the body. `settled()` resolves once every
 * attempt started has ended (a worker's stop waits for it).
 */
export function deliveryProcessor(deliver: DeliverWebhook, logger: Logger, limits: InFlightLimits, seal: DirectAttemptSeal, metrics?: Metrics) {
  const running = new Set<Promise<void>>();
  let settling = false;
  /**
   * The next version of an ordered page, started at once by the attempt that passed it the turn,
   * on that attempt's slot (ended, its record written), claimed by the pass: the slot is handed
   * over in one tick, so no other attempt takes it between, and the page's next version needs no
   * job, no claim of its own and no wait. Not while the worker stops: it is then enqueued, and the
   * stop does not wait for a chain.
   */
  const followOnOf = (job: DeliveryJobData, held: AttemptSlot): FollowOn => ({
    reserve: () => {
      if (settling) return null;
      held();
      const slot = limits.tryAcquire(job.tenantId, job.endpoint);
      if (!slot) return null;
      return {
        start: (next, claim) => run({ deliveryId: next.deliveryId, eventId: next.eventId, attempt: next.attempt }, { tenantId: next.tenantId, endpoint: next.endpoint, attempts: [] }, slot, claim),
        cancel: () => slot(),
      };
    },
  });
  const run = (due: DueAttempt, job: DeliveryJobData, release: AttemptSlot, claimed?: DeliveryClaim): void => {
    const attempt = deliver
      .execute({ ...due, tenantId: job.tenantId, endpoint: job.endpoint, requestEnded: release.requestEnded, followOn: followOnOf(job, release), ...(claimed && { claimed }) })
      .then((report) => observe(report, logger, metrics))
      .catch((error: Error) => logger.warn({ attempts: [{ deliveryId: due.deliveryId, attempt: due.attempt }], err: { message: error.message } }, 'delivery attempt failed inside; the sweeper retries it after its lease'))
      .finally(() => {
        release();
        running.delete(attempt);
      });
    running.add(attempt);
  };

  const processor = async (job: DeliveryJobHandle, token?: string): Promise<string> => {
    const attempts = attemptsOf(job.data).map((due) => trusted(due, job.data.tenantId, seal, logger));
    const slots = await Promise.all(attempts.map((due) => limits.acquire(job.data.tenantId, job.data.endpoint, AT_CAP_WAIT_MS)));
    attempts.forEach((due, i) => {
      const release = slots[i];
      if (release) run(due, job.data, release);
    });
    const handedBack = attempts.filter((_, i) => slots[i] === null);
    if (handedBack.length > 0) {
      if (handedBack.length < attempts.length) await job.updateData({ tenantId: job.data.tenantId, endpoint: job.data.endpoint, attempts: handedBack });
      await job.moveToDelayed(Date.now() + AT_CAP_DELAY_MS + Math.floor(Math.random() * AT_CAP_DELAY_MS), token);
      throw new DelayedError();
    }
    return `started ${attempts.length}`;
  };

  const settled = async (): Promise<void> => {
    settling = true;
    while (running.size > 0) await Promise.allSettled([...running]);
  };
  return Object.assign(processor, { settled });
}

/**
 * The attempt as the job asks for it when its direct part is sealed (DirectAttemptSeal); else
 * without it, so that it is claimed from PostgreSQL and sends only what is due there.
 */
function trusted(due: DueAttempt, tenantId: string, seal: DirectAttemptSeal, logger: Logger): DueAttempt {
  if (!due.direct || seal.holds(tenantId, due)) return due;
  logger.warn({ attempts: [{ deliveryId: due.deliveryId, attempt: due.attempt }] }, 'a first attempt came without a valid seal: it is claimed from the database instead');
  const { direct: _ignored, ...claimed } = due;
  return claimed;
}

/** An attempt's metrics and log line. */
function observe(report: DeliveryAttemptReport, logger: Logger, metrics?: Metrics): void {
  if (report.outcome === 'put off' || report.outcome === 'held') {
    // Not an attempt: held with its subscription (open breaker, Retry-After), or put off to its rate slot.
    logger.debug(report, report.outcome === 'held' ? 'webhook attempt held with its subscription' : 'webhook attempt put off');
    return;
  }
  if (report.outcome !== 'skipped' && report.outcome !== 'cancelled') {
    const statusClass = report.statusCode ? `${Math.floor(report.statusCode / 100)}xx` : 'none';
    metrics?.deliveryAttempt(report.outcome, statusClass, (report.durationMs ?? 0) / 1000);
  }
  if (report.health) {
    if (report.health === 'disabled') metrics?.subscriptionAutoDisabled();
    const what = { 'breaker-opened': 'failing: its breaker opened', recovered: 'recovered: its breaker closed', disabled: 'turned off by the platform' }[report.health];
    logger.warn({ subscriptionId: report.subscriptionId, eventId: report.eventId, deliveryId: report.deliveryId, attempt: report.attempt, health: report.health }, `webhook subscription ${what}`);
  }
  if (report.outcome !== 'skipped') {
    if (report.outcome === 'failed') logger.warn(report, 'webhook delivery failed for good');
    else logger.info(report, 'webhook attempt');
  }
}
