import { MikroORM } from '@mikro-orm/postgresql';
import { RecordSession } from '../../infrastructure/persistence/connection/record-session';
import type { Worker } from 'bullmq';
import { NestFactory } from '@nestjs/core';
import { DeliverWebhook } from '../../application/webhook/attempt/deliver-webhook.use-case';
import { OutboxSignal } from '../../application/webhook/relay/outbox-signal.port';
import { RelayOutbox } from '../../application/webhook/relay/relay-outbox.use-case';
import { RollHistoryDays } from '../../application/webhook/history/roll-history-days.use-case';
import { SweepDeliveries } from '../../application/webhook/sweeper/sweep-deliveries.use-case';
import { WakeHeldDeliveries } from '../../application/webhook/held/wake-held-deliveries.use-case';
import { DeliveryJobData } from '../../application/webhook/delivery/delivery-job';
import { WebhookSender } from '../../application/webhook/attempt/webhook-sender.port';
import { InFlightLimits } from '../../interfaces/worker/in-flight-limits';
import { AppConfig } from '../../infrastructure/config/app-config';
import { attemptSlots } from '../../infrastructure/config/webhook-config';
import type { Logger } from '../../application/shared/logger.port';
import { BullmqDeliveryQueue, deliveryQueueName } from '../../infrastructure/queue/bullmq-delivery.queue';
import { BullmqFactory, Disposable } from '../../infrastructure/queue/bullmq-factory';
import { chooseQueueBackend, QueueBackend } from '../../infrastructure/queue/queue-backend';
import { HttpWebhookSender } from '../../infrastructure/webhooks/http-webhook.sender';
import { deliveryProcessor } from '../../interfaces/worker/delivery.processor';
import { RelayLoop } from '../../interfaces/worker/relay.loop';
import { IntervalLoop } from '../../interfaces/worker/interval.loop';
import { logQueueWorkerEvents } from '../../interfaces/worker/queue-worker.events';
import { historyDaysLoop, sweepLoop, wakeLoop } from '../../interfaces/worker/upkeep.loops';
import { superviseWorker } from './supervised-worker';
import { WorkerModule } from './worker.module';
import { Metrics } from '../../application/shared/metrics.port';
import { registerQueueGauges } from '../../infrastructure/metrics/operational-gauges';
import { startTracing } from '../../infrastructure/tracing/tracing';
import { resolveEncryptionKey } from '../../infrastructure/crypto/encryption-key';
import { HmacDirectAttemptSeal } from '../../infrastructure/queue/hmac-direct-attempt-seal';

/**
 * Events a relay round claims at most (its deliveries are capped apart, RELAY_ROUND_ROWS). 1,000
 * drained a one-tenant backlog 13–18 % faster, but it puts more of a burst's fresh jobs ahead of
 * other tenants' in the one queue: in the storm test another tenant's worst wait rose by about
 * 0.1–0.25 s (to 1,355 ms before BreakersSeenOpen). Kept at 200 (decisions.md 165).
 */
const RELAY_ROUND_EVENTS = 200;

export interface WebhookWorker {
  backend: QueueBackend;
  relay: RelayLoop;
  sweep: IntervalLoop;
  /** Stops taking work, lets attempts in progress finish, then closes every connection. */
  stop(): Promise<void>;
}

/**
 * Queue jobs a worker holds at once. A job is held only while its attempts wait for their slots
 * (up to half a second, while the receiver they wait for is answering others), not while they
 * run, so this bounds the hand-out, not the attempts in flight (WEBHOOK_CONCURRENCY). A drain
 * here keeps about 50 busy.
 */
const JOBS_AT_ONCE = 100;

/** The history's days are made and dropped once at start, then every ten minutes. */
const RETENTION_INTERVAL_MS = 10 * 60_000;

/** Composition root of the webhook worker: relay, queue worker and sweeper around the use cases. */
export async function startWebhookWorker(deps: {
  config: AppConfig;
  orm: MikroORM;
  databaseUrl: string;
  logger: Logger;
  /** Where to look for a Redis when REDIS_URL is not set (tests point it at a closed port). */
  localRedis?: { host: string; port: number };
  metrics?: Metrics;
}): Promise<WebhookWorker> {
  // Attempts continue their events' traces (the service process started tracing already).
  startTracing();
  const { config, logger } = deps;
  const backend = await chooseQueueBackend(config, deps.databaseUrl, logger, deps.localRedis);
  const factory = new BullmqFactory(backend, config.webhooks.queuePrefix);
  let stopping = false;
  const shards = backend.kind === 'postgres' ? 1 : config.webhooks.queueShards;
  const queueName = (shard: number) => deliveryQueueName(shard, shards, config.webhooks.queuePrefix);
  // First attempts sent without a claim are sealed with a key Redis never holds (decisions.md 180).
  const seal = new HmacDirectAttemptSeal(resolveEncryptionKey(config.secretsEncryptionKey, config.dataDir, logger));
  const deliveryQueue = new BullmqDeliveryQueue((shard) => {
    const made = factory.queue(queueName(shard));
    made.value.on('error', (error: Error) => {
      if (!stopping) logger.warn({ err: { message: error.message } }, 'delivery queue connection error');
    });
    return made;
  }, config.webhooks.attemptsPerJob, shards, seal);
  // Attempts are recorded on a connection of their own, whose plans are kept (RecordSession).
  const records = await RecordSession.open(deps.databaseUrl, config.databaseStatementTimeoutMs);
  const context = await NestFactory.createApplicationContext(
    WorkerModule.forRoot({ config, orm: deps.orm, logger, databaseUrl: deps.databaseUrl, queue: deliveryQueue, metrics: deps.metrics, records }),
    { logger: false, abortOnError: false },
  ).catch(async (error: unknown) => {
    await records.close();
    throw error;
  });

  // WEBHOOK_CONCURRENCY bounds attempts in flight (a job may carry several), with a reserve above
  // it for tenants with nothing in flight; the jobs taken at once cover both.
  const slots = attemptSlots(config.webhooks);
  const limits = new InFlightLimits(config.webhooks.tenantConcurrency, config.webhooks.endpointConcurrency, slots.perWorker, slots.reserve);
  const processor = deliveryProcessor(context.get(DeliverWebhook), logger, limits, seal, deps.metrics);
  // One BullMQ worker per delivery queue, all on the one processor: its in-flight caps hold across
  // them, so the attempts in flight are bounded as with one queue, whichever shards the work is in.
  const queueWorkers = Array.from({ length: shards }, (_, shard) =>
    superviseWorker((counted): Disposable<Worker<DeliveryJobData>> => {
      const made = factory.worker<DeliveryJobData>(queueName(shard), counted(processor), {
        // Jobs being handed out, not attempts in flight: an attempt runs on once it has its slot.
        concurrency: Math.min(slots.total, JOBS_AT_ONCE),
        lockDuration: config.webhooks.attemptLockMs,
      });
      logQueueWorkerEvents(made.value, logger, () => stopping);
      return made;
    }, logger, { ready: () => deliveryQueue.queue(shard).getJobCountByTypes('wait', 'prioritized'), concurrency: Math.min(slots.total, JOBS_AT_ONCE) }),
  );

  if (deps.metrics) registerQueueGauges(deps.metrics, () => deliveryQueue.queues());
  const relay = new RelayLoop(context.get(RelayOutbox), context.get(OutboxSignal), logger, { pollMs: config.webhooks.relayPollMs, batch: RELAY_ROUND_EVENTS, lanes: config.webhooks.relayLanes });
  await relay.start();
  const sweep = sweepLoop(context.get(SweepDeliveries), logger, config.webhooks.sweepIntervalMs);
  sweep.start();
  const wake = wakeLoop(context.get(WakeHeldDeliveries), logger, config.webhooks.sweepIntervalMs);
  wake.start();
  const retention = historyDaysLoop(context.get(RollHistoryDays), logger, RETENTION_INTERVAL_MS);
  retention.start();
  void retention.tick();
  logger.info({ queue: backend.kind, queues: shards, concurrency: config.webhooks.concurrency }, 'webhook worker started');

  return {
    backend,
    relay,
    sweep,
    stop: async () => {
      stopping = true;
      await relay.stop();
      await sweep.stop();
      await wake.stop();
      await retention.stop();
      await Promise.all(queueWorkers.map((w) => w.stop()));
      // Attempts started hold no job: they are waited for here (SHUTDOWN_GRACE_MS bounds the whole stop).
      await processor.settled();
      await deliveryQueue.close();
      await (context.get(WebhookSender) as HttpWebhookSender).close();
      await context.close();
      await records.close();
    },
  };
}
