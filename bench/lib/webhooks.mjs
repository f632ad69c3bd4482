// Webhooks end to end: one worker draining a backlog of events to a receiver that verifies every
// signature, the same-run ceiling of BullMQ alone (no database), and the latency from a page's 201
// to its event's arrival at a fixed rate of events.
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describeCost, startDrainCost } from './drain-cost.mjs';
import { startRedisCluster } from './redis-cluster.mjs';
import { arrivalLatencies, quantile } from './stats.mjs';
import { BASE, extraNodeFlags, ROOT, SERVICE_FLAGS } from './services.mjs';

// The worker runs with its default caps: the drain is one tenant's deliveries to one receiver, so
// what it keeps in flight is the default cap per tenant and origin (a tenth of WEBHOOK_CONCURRENCY,
// 50 of 500). The BullMQ-only ceilings run with that many jobs at once.
const DRAIN_IN_FLIGHT = 50;
const RECEIVER_PORT = 3918;
// The scenarios' events (POST pages, duplicates) were made while no worker ran and no
// subscription existed. A worker running all along would have relayed each to nobody as it came;
// one run does so before the receiver subscribes, or the drain would time the relay working
// through them besides the deliveries it counts.
// The relay's queue where the build has one (Migration20261129100000), else the events' mark:
// the same bench measures a build and its baseline.
const unpublishedEvents = async (services) =>
  (await services.runStatement(`SELECT to_regclass('outbox_unpublished') IS NOT NULL AS queued`)).rows[0].queued
    ? 'SELECT count(*)::int AS n FROM outbox_unpublished'
    : 'SELECT count(*)::int AS n FROM outbox_events WHERE published_at IS NULL';
// The ordered drain (issue 45): this many pages, to a subscription with `ordering: "page"`; each
// page's deliveries go one after another. As many deliveries as the unordered drain (the backlog),
// so that both rates are sustained ones: with 10 versions a page the ordered drain lasted half a
// second after its first 100, and it measured a new worker's start more than its drain.
const ORDERED_PAGES = 100;
const orderedVersions = (backlog) => Math.max(10, Math.round(backlog / ORDERED_PAGES));

/** Pages created at a fixed rate by bench/processes/event-feed.mjs; each 201's arrival time by page id. */
function feed(services, host, spec) {
  return new Promise((resolve, reject) => {
    const child = services.node(1, join(ROOT, 'bench', 'processes', 'event-feed.mjs'), [JSON.stringify(spec)], {}, undefined, [], host.generatorPriority);
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`event feed exited ${code}`))));
  });
}

export async function benchWebhooks({ services, host, options, log, headers, pageGroupId }) {
  // A reused data set (--reuse) keeps the subscriptions of earlier runs: they would multiply the
  // deliveries of every event.
  const earlier = await (await fetch(`${BASE}/v0/webhook_subscriptions?limit=100`, { headers })).json();
  for (const s of earlier.items ?? []) await fetch(`${BASE}/v0/webhook_subscriptions/${s.id}`, { method: 'DELETE', headers });
  const unpublishedSql = await unpublishedEvents(services);
  const unpublished = await services.countOf(unpublishedSql);
  if (unpublished > 0) {
    const relay = await services.startService('worker', 0, { DATABASE_POOL_MAX: '4' });
    await services.untilNoneLeft(unpublishedSql, 100, () => {
      if (relay.exitCode !== null || relay.signalCode !== null) throw new Error("the worker relaying the scenarios' events stopped (bench/results/worker.log)");
    });
    await services.stopProcess(relay);
    log(`  ${unpublished} events of the scenarios relayed before subscribing (no subscription existed when they were made)`);
  }

  const subscription = await (
    await fetch(`${BASE}/v0/webhook_subscriptions`, { method: 'POST', headers, body: JSON.stringify({ url: `http://127.0.0.1:${RECEIVER_PORT}/hooks`, events: ['page.version.created'] }) })
  ).json();
  const receiver = services.node(1, join(ROOT, 'bench', 'processes', 'receiver.mjs'), [], { SIGNING_SECRET: subscription.signingSecret, PORT: String(RECEIVER_PORT) });
  const waiters = [];
  let count = 0;
  let summary;
  createInterface({ input: receiver.stdout }).on('line', (line) => {
    if (line.startsWith('count ')) count = Number(line.slice(6));
    if (line.startsWith('summary ')) summary = JSON.parse(line.slice(8));
    for (const w of [...waiters]) if (w.test(line)) (waiters.splice(waiters.indexOf(w), 1), w.resolve());
  });
  const waitLine = (test) => new Promise((resolve) => waiters.push({ test, resolve }));
  await waitLine((l) => l === 'ready');

  // Throughput: a backlog of events made through the API while no worker runs, then one worker drains it.
  const pages = `${BASE}/v0/page_groups/${pageGroupId}/pages`;
  for (let made = 0; made < options.backlog; ) {
    const batch = await Promise.all(Array.from({ length: 50 }, () => fetch(pages, { method: 'POST', headers }).then((r) => r.status)));
    made += batch.filter((s) => s === 201).length;
  }
  // Vacuumed now rather than by autovacuum in the middle of the drain, then checkpointed as before every measured round.
  // The relay's queue (outbox_unpublished) above all: relaying the scenarios' events deleted
  // 100,000 and more of its rows, and until they are vacuumed the drain's claims read past their
  // index entries. A recorded run whose drain began before autovacuum had visited the queue
  // (2026-11-30) measured the claim at 51 µs a delivery against 8 in the run before it, and
  // PostgreSQL at 207 µs a delivery against 117.
  await services.vacuum(['pages', 'page_versions', 'outbox_events', 'outbox_unpublished', 'event_feed', 'page_group_counters', 'webhook_deliveries', 'webhook_delivery_attempts']);
  await services.checkpoint();
  const worker = await services.startService('worker', 0, { WEBHOOK_ATTEMPTS_PER_JOB: String(options.attemptsPerJob), DATABASE_POOL_MAX: '24' });
  const stopWorkerRss = services.sampleRss(worker.pid);
  // Sustained rate: timed from the first hundred arrivals (the drainer has started and connected)
  // to the last, so that the process's start-up is not counted as delivery time.
  const drain = async (drainer, total = options.backlog, redisUrls = undefined) => {
    await waitLine(() => count >= 100);
    const [t0, c0] = [Date.now(), count];
    const cost = await startDrainCost({ databaseUrl: options.databaseUrl, redisUrl: options.redisUrl, redisUrls, pids: { worker: drainer.pid, receiver: receiver.pid } });
    await waitLine(() => count >= total);
    const seconds = (Date.now() - t0) / 1000;
    return { delivered: total - c0, seconds, perSecond: Math.round((total - c0) / seconds), cost: await cost.finish(total - c0) };
  };
  const drained = await drain(worker);
  log(`  ${drained.delivered} deliveries by one worker in ${drained.seconds.toFixed(1)} s (after the first 100): ${drained.perSecond}/s`);
  log(`    ${describeCost(drained.cost)}`);

  // Latency at a fixed event rate: pages created at 200/s, from each page's 201 (as the feed
  // received it) to its event's arrival, both on this machine's clock; also from the event's
  // creation in the API. The backlog's tail is finished first, then 3 s of warm-up at the same
  // rate are sent and not counted.
  await services.untilNoneLeft("SELECT count(*)::int AS n FROM webhook_deliveries WHERE status IN ('pending', 'sending')", 200);
  const rate = 200;
  await feed(services, host, { url: pages, headers, rate, duration: 3 });
  await new Promise((r) => setTimeout(r, 500));
  receiver.kill('SIGUSR2');
  await waitLine((l) => l === 'reset');
  const fed = await feed(services, host, { url: pages, headers, rate, duration: options.quick ? 5 : 10, answeredKey: 'pageId' });
  await new Promise((r) => setTimeout(r, 1500));
  const workerRss = stopWorkerRss();
  receiver.kill('SIGUSR1');
  await waitLine((l) => l.startsWith('summary '));
  const arrived = summary;
  const end = Date.now(); // a page whose event has not arrived 1.5 s after the last 201 counts as that late at least
  await services.stopProcess(worker);

  // The ordered drain: the same subscription with `ordering: "page"`, 100 pages of 10 versions
  // made while no worker runs, then one worker drains them, each page's versions one at a time.
  await fetch(`${BASE}/v0/webhook_subscriptions/${subscription.id}`, { method: 'PATCH', headers, body: JSON.stringify({ ordering: 'page' }) });
  const orderedPages = [];
  while (orderedPages.length < ORDERED_PAGES) {
    const made = await Promise.all(Array.from({ length: 50 }, () => fetch(pages, { method: 'POST', headers }).then(async (r) => (r.status === 201 ? (await r.json()).pageId : null))));
    orderedPages.push(...made.filter((id) => id !== null));
  }
  const ORDERED_VERSIONS = orderedVersions(options.backlog);
  for (let version = 2; version <= ORDERED_VERSIONS; version++) {
    for (let at = 0; at < ORDERED_PAGES; at += 50) {
      await Promise.all(orderedPages.slice(at, at + 50).map((id) => fetch(`${pages}/${id}/versions`, { method: 'POST', headers, body: '{}' })));
    }
  }
  await services.vacuum(['webhook_deliveries', 'outbox_events', 'outbox_unpublished', 'event_feed']);
  await services.checkpoint();
  receiver.kill('SIGUSR2');
  await waitLine((l) => l === 'reset');
  count = 0;
  const orderedWorker = await services.startService('worker', 0, { WEBHOOK_ATTEMPTS_PER_JOB: String(options.attemptsPerJob), DATABASE_POOL_MAX: '24' });
  const ordered = await drain(orderedWorker, ORDERED_PAGES * ORDERED_VERSIONS);
  log(`  ordered drain (${ORDERED_PAGES} pages × ${ORDERED_VERSIONS} versions, ordering: page): ${ordered.perSecond}/s, beside ${drained.perSecond}/s unordered`);
  log(`    ${describeCost(ordered.cost)}`);
  await services.stopProcess(orderedWorker);

  // The same drain with the worker's queues on a Redis Cluster of 3 masters and 3 replicas
  // (REDIS_CLUSTER_NODES, 12 queues by tenant; one tenant here, so one queue on one master).
  await fetch(`${BASE}/v0/webhook_subscriptions/${subscription.id}`, { method: 'PATCH', headers, body: JSON.stringify({ ordering: 'none' }) });
  const clusterBacklog = Math.max(2000, Math.floor(options.backlog / 4));
  for (let made = 0; made < clusterBacklog; ) {
    const batch = await Promise.all(Array.from({ length: 50 }, () => fetch(pages, { method: 'POST', headers }).then((r) => r.status)));
    made += batch.filter((s) => s === 201).length;
  }
  await services.vacuum(['webhook_deliveries', 'outbox_events', 'outbox_unpublished', 'event_feed']);
  await services.checkpoint();
  const cluster = await startRedisCluster(log);
  receiver.kill('SIGUSR2');
  await waitLine((l) => l === 'reset');
  count = 0;
  const clusterWorker = await services.startService('worker', 0, {
    WEBHOOK_ATTEMPTS_PER_JOB: String(options.attemptsPerJob), DATABASE_POOL_MAX: '24', REDIS_URL: '', REDIS_CLUSTER_NODES: cluster.nodes, QUEUE_PREFIX: 'bench',
  });
  let onCluster;
  try {
    onCluster = await drain(clusterWorker, clusterBacklog, cluster.nodes.split(',').map((node) => `redis://${node}`));
  } finally {
    await services.stopProcess(clusterWorker);
    await cluster.stop();
  }
  log(`  drain with the queues on a Redis Cluster (3 masters, 3 replicas): ${onCluster.perSecond}/s, beside ${drained.perSecond}/s on one Redis`);
  log(`    ${describeCost(onCluster.cost)}`);

  // The ceiling, in the same run: as many BullMQ jobs carrying the event's body, signed and POSTed
  // with the worker's own code and concurrency, and no database; one POST per job, then as many
  // per job as the worker groups.
  const { rows: sample } = await services.runStatement("SELECT body FROM outbox_events WHERE type = 'page.version.created' ORDER BY id DESC LIMIT 1");
  const ceilingOf = async (perJob, addsTimed = false) => {
    const spec = { redisUrl: options.redisUrl, url: `http://127.0.0.1:${RECEIVER_PORT}/hooks`, signingSecret: subscription.signingSecret, body: sample[0].body, count: options.backlog, concurrency: DRAIN_IN_FLIGHT, perJob, addsTimed };
    const child = services.node(0, join(ROOT, 'bench', 'processes', 'bullmq-baseline.mjs'), [JSON.stringify(spec)], {}, ['pipe', 'pipe', 'inherit'], [...SERVICE_FLAGS, ...extraNodeFlags('ceiling')]);
    await new Promise((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
    receiver.kill('SIGUSR2');
    await waitLine((l) => l === 'reset');
    count = 0;
    child.stdin.write('go\n');
    const measured = await drain(child);
    log(`  ceiling, BullMQ only (${perJob === 1 ? 'one signed POST per job' : `${perJob} signed POSTs per job`}, no database${addsTimed ? ', its jobs added in the measured window' : ''}): ${measured.perSecond}/s`);
    log(`    ${describeCost(measured.cost)}`);
    await services.stopProcess(child);
    return measured;
  };
  const ceiling = await ceilingOf(1);
  const groupedCeiling = await ceilingOf(options.attemptsPerJob);
  // The grouped ceiling again with its adds timed: the drain's relay adds its jobs inside the
  // drain's window, where the two ceilings above add theirs before their clocks start.
  const groupedCeilingWithAdds = await ceilingOf(options.attemptsPerJob, true);
  receiver.kill('SIGTERM');

  const latency = arrivalLatencies(fed.answered, arrived.arrivals, end);
  const fromCreation = { p50Ms: quantile(arrived.latencies, 0.5), p99Ms: quantile(arrived.latencies, 0.99) };
  log(`  at ${rate} events/s: 201 → arrival p50 ${latency.p50Ms} ms, p99 ${latency.p99Ms} ms (${latency.count} pages, ${latency.missing} not arrived); creation → arrival p50 ${fromCreation.p50Ms} ms, p99 ${fromCreation.p99Ms} ms`);
  return {
    workerRss,
    summary: {
      deliveriesPerSecond: drained.perSecond,
      drainCost: drained.cost,
      orderedDeliveriesPerSecond: ordered.perSecond,
      orderedDrain: { pages: ORDERED_PAGES, versions: ORDERED_VERSIONS },
      orderedCost: ordered.cost,
      clusterDeliveriesPerSecond: onCluster.perSecond,
      clusterCost: onCluster.cost,
      attemptsPerJob: options.attemptsPerJob,
      ceilingDeliveriesPerSecond: ceiling.perSecond,
      ceilingCost: ceiling.cost,
      groupedCeilingDeliveriesPerSecond: groupedCeiling.perSecond,
      groupedCeilingCost: groupedCeiling.cost,
      groupedCeilingWithAddsDeliveriesPerSecond: groupedCeilingWithAdds.perSecond,
      groupedCeilingWithAddsCost: groupedCeilingWithAdds.cost,
      latencyP50Ms: latency.p50Ms,
      latencyP99Ms: latency.p99Ms,
      eventsPerSecond: rate,
      delivered: arrived.distinct,
      notArrived: latency.missing,
      badSignatures: arrived.badSignatures,
      fromCreationP50Ms: fromCreation.p50Ms,
      fromCreationP99Ms: fromCreation.p99Ms,
    },
  };
}
