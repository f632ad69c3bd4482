// What a run prints and records: the console table, docs/performance.md and its chart. Pure: each
// function takes the run's result (the shape of bench/results/latest.json) and returns text.

const pad = (value, width, end = false) => (end ? String(value).padEnd(width) : String(value).padStart(width));

/** Whether the run compared each endpoint with a (b) measured beside it (runs recorded before did not). */
const rawPgPaired = (result) => result.scenarios.some((s) => s.ratioToRawPgEachRound !== undefined);

/** Whether the run compared the writes with the raw write (b-w) (runs recorded before it existed did not). */
const hasRawWrite = (result) => result.scenarios.some((s) => s.ratioToRawWrite !== undefined);

/** Whether the run measured baseline (c) (runs recorded before it existed did not). */
const hasFloor = (result) => result.scenarios.some((s) => s.ratioToFloor !== undefined);

/** The console summary of a run; `recorded` says where its results went. */
export function table(result, recorded) {
  const floor = hasFloor(result);
  const write = hasRawWrite(result);
  const head = `${pad('scenario', 34, true)} ${pad('req/s', 7)} ${pad('p50', 6)} ${pad('p99', 6)} ${pad('errors', 6)} ${pad('/(a)', 6)} ${pad('/(b)', 6)}${write ? ` ${pad('/(b-w)', 6)}` : ''}${floor ? ` ${pad('/(c)', 6)}` : ''}`;
  const rows = result.scenarios.map(
    (s) =>
      `${pad(s.name, 34, true)} ${pad(s.rps, 7)} ${pad(s.p50Ms, 6)} ${pad(s.p99Ms, 6)} ${pad(s.errors, 6)} ${pad(s.ratioToBareNest, 6)} ${pad(s.ratioToRawPg, 6)}${write ? ` ${pad(s.ratioToRawWrite ?? '', 6)}` : ''}${floor ? ` ${pad(s.ratioToFloor, 6)}` : ''}`,
  );
  const w = result.webhooks;
  return [
    head,
    ...rows,
    '',
    w.deliveriesPerSecond !== undefined
      ? `webhooks: ${w.deliveriesPerSecond} deliveries/s by one worker${w.orderedDeliveriesPerSecond !== undefined ? `, ${w.orderedDeliveriesPerSecond}/s ordered per page` : ''}${w.clusterDeliveriesPerSecond !== undefined ? `, ${w.clusterDeliveriesPerSecond}/s on a Redis Cluster` : ''} (ceiling, BullMQ only and no database: ${w.ceilingDeliveriesPerSecond}/s one POST per job, ${w.groupedCeilingDeliveriesPerSecond}/s ${w.attemptsPerJob} per job${w.groupedCeilingWithAddsDeliveriesPerSecond !== undefined ? `, ${w.groupedCeilingWithAddsDeliveriesPerSecond}/s with its adds timed` : ''}); at ${w.eventsPerSecond} events/s, 201 → arrival p50 ${w.latencyP50Ms} ms, p99 ${w.latencyP99Ms} ms; bad signatures ${w.badSignatures}`
      : 'webhooks: not measured',
    result.longPoll
      ? `long poll: ${result.longPoll.consumers} parked consumers cost the API ${round1(result.longPoll.apiRssParkedMb - result.longPoll.apiRssIdleMb)} MB (${result.longPoll.apiRssIdleMb} → ${result.longPoll.apiRssParkedMb}); at ${result.longPoll.eventsPerSecond} events/s, 201 → consumer p50 ${result.longPoll.p50Ms} ms, p99 ${result.longPoll.p99Ms} ms (${result.longPoll.delivered} of ${result.longPoll.events}, errors ${result.longPoll.errors})`
      : 'long poll: not measured',
    result.portalPage
      ? `portal page (${result.portalPage.runs} sessions): link → subscriptions p50 ${result.portalPage.linkToSubscriptions.p50Ms} ms, p95 ${result.portalPage.linkToSubscriptions.p95Ms} ms; Deliveries → first row p50 ${result.portalPage.deliveriesTabToFirstRow.p50Ms} ms, p95 ${result.portalPage.deliveriesTabToFirstRow.p95Ms} ms`
      : 'portal page: not measured',
    `resident memory under load: API ${result.rssMb.api} MB, worker ${result.rssMb.worker} MB`,
    recorded ? `results: bench/results/latest.json, docs/performance.md (${result.seconds} s)` : `partial run, not recorded: bench/data/last-partial-run.json (${result.seconds} s)`,
    '',
  ].join('\n');
}

/** The latency-against-load chart (SVG) of the open-loop points. */
export function chart(recorded) {
  // Open-loop points only: a closed-loop figure at saturation is bounded by its connections and
  // would not be comparable (results recorded before 2026-11-23 still hold such a point).
  const curve = { ...recorded, points: recorded.points.filter((p) => p.share < 1) };
  const w = 640, h = 360, margin = 50;
  const maxX = Math.max(...curve.points.map((p) => p.rate));
  const maxY = Math.max(...curve.points.map((p) => p.p99Ms), 1);
  const x = (v) => margin + (v / maxX) * (w - 2 * margin);
  const y = (v) => h - margin - (v / maxY) * (h - 2 * margin);
  const line = (key, color) =>
    `<polyline fill="none" stroke="${color}" stroke-width="2" points="${curve.points.map((p) => `${x(p.rate).toFixed(1)},${y(p[key]).toFixed(1)}`).join(' ')}"/>` +
    curve.points.map((p) => `<circle cx="${x(p.rate).toFixed(1)}" cy="${y(p[key]).toFixed(1)}" r="3" fill="${color}"/>`).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" font-family="sans-serif" font-size="12">
<rect width="100%" height="100%" fill="white"/>
<text x="${w / 2}" y="20" text-anchor="middle">${curve.scenario}: latency against load</text>
<line x1="${margin}" y1="${h - margin}" x2="${w - margin}" y2="${h - margin}" stroke="black"/><line x1="${margin}" y1="${margin}" x2="${margin}" y2="${h - margin}" stroke="black"/>
<text x="${w / 2}" y="${h - 10}" text-anchor="middle">offered load (req/s, constant rate; 25, 50, 75, 90 % of the maximum)</text>
<text x="15" y="${h / 2}" transform="rotate(-90 15 ${h / 2})" text-anchor="middle">latency (ms)</text>
<text x="${margin - 5}" y="${y(maxY) + 4}" text-anchor="end">${maxY}</text><text x="${margin - 5}" y="${h - margin + 4}" text-anchor="end">0</text>
<text x="${w - margin}" y="${h - margin + 15}" text-anchor="end">${maxX}</text>
${line('p99Ms', '#dc2626')}${line('p50Ms', '#2563eb')}
<text x="${w - margin}" y="${margin}" text-anchor="end" fill="#dc2626">p99</text><text x="${w - margin}" y="${margin + 15}" text-anchor="end" fill="#2563eb">p50</text>
</svg>
`;
}

/** The host-change flags of a recorded run, as its command line gave them. */
const flagsOf = (changes = {}) => {
  const flags = ['pin', 'autovacuum', 'statements'].filter((name) => changes[name]);
  return flags.length > 0 ? ` -- ${flags.map((name) => `--${name}`).join(' ')}` : '';
};

/** Where the processes ran: the host changes the run made (flags --pin, --autovacuum, --statements), or none. */
export function placement(machine) {
  const pinned = machine.hostChanges?.pin ?? true; // runs recorded before the flags were always pinned
  const parts = pinned
    ? [
        `the API pinned to core 0${machine.apiHelperThreadsCore === 1 ? ' (its JavaScript thread; its V8 helper threads for garbage collection and compiling on core 1)' : ''}; PostgreSQL, Redis and the load generator on core 1 (PostgreSQL back on both cores for the webhook measurements)`,
      ]
    : ['no process pinned to a core (run without --pin)'];
  if (machine.hostChanges?.autovacuum) parts.push("autovacuum switched on for the run (--autovacuum) and the server's setting restored after it");
  if (machine.hostChanges?.statements) parts.push('pg_stat_statements loaded for the run (--statements: PostgreSQL restarted before and after it)');
  return parts.join('; ');
}

/** What one request of each endpoint cost (measure.mjs, a closed-loop run counted apart). */
function requestCostTable(costs) {
  if (!costs || Object.keys(costs).length === 0) return '';
  const rows = Object.entries(costs).map(([name, c]) => `| ${name} | ${c.cpuUs} | ${c.postgresCpuUs} | ${c.redisCpuUs} | ${c.postgresTransactions} | ${c.walBytes ?? '—'} | ${c.redisCommands} |`);
  return `
What one request cost at the maximum (a closed-loop run of its own, counted by bench/lib/drain-cost.mjs: CPU from /proc, PostgreSQL transactions, Redis commands including those inside scripts):

| scenario | API CPU µs | PostgreSQL CPU µs | Redis CPU µs | PostgreSQL transactions | WAL bytes | Redis commands |
|---|---|---|---|---|---|---|
${rows.join('\n')}
`;
}

function webhookCosts(w) {
  if (!w.drainCost) return '';
  const drains = [
    ['the worker, PostgreSQL the truth', w.deliveriesPerSecond, w.drainCost],
    ...(w.orderedCost ? [[`the worker, ordered per page (${w.orderedDrain.pages} pages × ${w.orderedDrain.versions} versions)`, w.orderedDeliveriesPerSecond, w.orderedCost]] : []),
    ...(w.clusterCost ? [['the worker, queues on a Redis Cluster (3 masters, 3 replicas)', w.clusterDeliveriesPerSecond, w.clusterCost]] : []),
    ['ceiling: BullMQ only, one POST per job', w.ceilingDeliveriesPerSecond, w.ceilingCost],
    [`ceiling: BullMQ only, ${w.attemptsPerJob} POSTs per job`, w.groupedCeilingDeliveriesPerSecond, w.groupedCeilingCost],
    ...(w.groupedCeilingWithAddsCost ? [[`ceiling: BullMQ only, ${w.attemptsPerJob} POSTs per job, its jobs added in the window (as the relay's are)`, w.groupedCeilingWithAddsDeliveriesPerSecond, w.groupedCeilingWithAddsCost]] : []),
  ];
  const rows = drains.map(
    ([name, rate, c]) =>
      `| ${name} | ${rate} | ${c.cpuUsPerDeliveryTotal} (${['worker', 'postgres', 'redis', 'receiver', 'other'].map((k) => c.cpuUsPerDelivery[k] ?? 0).join(', ')}) | ${c.coresBusy} | ${c.redisCommandsPerDelivery} | ${c.postgresStatementsPerDelivery ?? '—'} | ${c.postgresTransactionsPerDelivery} | ${c.walBytesPerDelivery ?? '—'} |`,
  );
  return `What one delivery of the drain cost (bench/lib/drain-cost.mjs; CPU from /proc, Redis commands including those inside its scripts, PostgreSQL statements (with pg_stat_statements loaded: --statements) and transactions, WAL bytes from pg_stat_wal):

| drain | deliveries/s | CPU µs per delivery (worker, PostgreSQL, Redis, receiver, other) | cores busy | Redis commands | PostgreSQL statements | PostgreSQL transactions | WAL bytes |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}

`;
}

function halfLoadCell(s) {
  if (!s.halfLoad) return '—';
  const h = s.halfLoad;
  return `${h.rps} → p50 ${h.p50Ms}, p99 ${h.p99Ms} (rounds: ${h.p99MsEachRound.join(', ')}${h.stealPercentEachRound ? `; CPU steal % ${h.stealPercentEachRound.join(', ')}` : ''})`;
}

/**
 * The soak's recorded runs (bench/results/soak.json, written by `npm run soak` at its recorded
 * size), as a section of docs/performance.md; empty when there are none.
 */
export function soakSection(soak) {
  const runs = ['plain', 'chaos'].filter((mode) => soak?.[mode]).map((mode) => [mode, soak[mode]]);
  if (runs.length === 0) return '';
  const row = ([mode, r]) =>
    `| ${mode} | ${r.date} | ${r.created} | ${r.delivered}/${r.expected} | ${r.lost} | ${r.duplicatesAfter2xx} | ${r.badSignatures} | ${r.creationMs.p50} / ${r.creationMs.p99} | ${r.creationSeconds} | ${r.allDeliveredSeconds} | ${r.peakRssMb.api} / ${r.peakRssMb.worker} / ${r.peakRssMb.driverAndReceiver} | ${faultCounts(r.faults)} |`;
  return `
## Soak

\`npm run soak\` (plain) and \`npm run soak -- --chaos\`: ${runs[0][1].pages} page creations at concurrency ${runs[0][1].concurrency}, ${runs[0][1].subscriptions} subscriptions of one tenant, a receiver on loopback that verifies both signatures of every request and fails ${runs[0][1].failShare * 100} % of first answers; API and worker as separate production processes on a fresh database. Chaos: a database cut through a TCP proxy, a Redis restart (empty) and a worker kill -9 at random moments while the pages are created. Duplicates after a 2xx are allowed (delivery is at least once); anything lost or badly signed fails the run.

| run | date | created | delivered | lost | duplicates after a 2xx | bad signatures | creation p50 / p99 ms | creations done after s | all delivered after s | peak RSS MB: API / worker / driver and receiver | faults |
|---|---|---|---|---|---|---|---|---|---|---|---|
${runs.map(row).join('\n')}
`;
}

/** How many faults of each kind a soak made, e.g. "12 database cut, 11 redis restart"; "none". */
export function faultCounts(faults) {
  const counts = new Map();
  for (const { kind } of faults) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return counts.size === 0 ? 'none' : [...counts].map(([kind, n]) => `${n} × ${kind}`).join(', ');
}

/** docs/performance.md. */
export function markdown(result, soak = null, history = null) {
  const m = result.machine;
  const w = result.webhooks;
  const d = m.diskFlush;
  const floor = hasFloor(result);
  const write = hasRawWrite(result);
  const rows = result.scenarios.map(
    (s) => `| ${s.name} | ${s.rps} | ${s.p50Ms} | ${s.p99Ms} | ${s.errors} | ${s.ratioToBareNest} | ${s.ratioToRawPg} |${write ? ` ${s.ratioToRawWrite ?? ''} |` : ''}${floor ? ` ${s.ratioToFloor} |` : ''} ${halfLoadCell(s)} |`,
  );
  const openLoop = m.openLoopGenerator === 'c' ? 'bench/processes/open-loop.c' : 'bench/processes/constant-rate.mjs';
  return `# Performance

Measured by \`npm run bench${flagsOf(m.hostChanges)}\`${m.quick ? ' (--quick: small data set, short runs)' : ''} on this machine (${m.cpus} cores, ${m.memoryGb} GiB, Node ${m.node}); ${placement(m)}.
Maximum throughput: ${m.loadGenerator ?? 'autocannon'}, 32 connections, after a warm-up. Half load and the latency curve: an open-loop generator at a constant rate (${openLoop}${m.openLoopPriority === 'nice -20' ? ', at the top CPU priority of its core, so that it sends on time' : ''}), latency counted from when each request was due (no coordinated omission), after 1 s of warm-up. PATCH goes round 100 brands of the tenant. Each round measures the reads, then the writes, after a checkpoint.
Data set: ${m.seed.tenants} tenants, ${m.seed.brands} brands, ${m.seed.pageGroups} page groups, ${m.seed.sessions} sessions (all in the measured page group). Medians of ${m.rounds} interleaved round(s) of ${m.durationSeconds} s.
Baselines, measured in the same run: (a) a bare NestJS route behind the same middleware, key guard, rate limit and filter, answering a constant; (b) the same, running the one raw \`pg\` query the brand list needs${write ? '; (b-w) the same, running the raw write a brand\'s creation needs: its row and its outbox row in one statement (a write commits and flushes WAL, which no read does; each write\'s ÷ (b-w) is paired as its ÷ (b) is, in `ratioToRawWriteEachRound`)' : ''}${floor ? '; (c) a bare \`node:http\` server in the same process running that query with no framework, key, limit or log: the floor of what this machine allows for the list' : ''}.${rawPgPaired(result) ? ' (b) is measured again after each endpoint: an endpoint\'s ÷ (b) is the median over the rounds of its throughput against the mean of the (b) measured right before and right after it (each round\'s in `ratioToRawPgEachRound`), since the host\'s speed moves within a run; ' + (floor ? '÷ (a) and ÷ (c) are ratios' : '÷ (a) is a ratio') + ' of the rounds\' medians.' : ''}
${d ? `The disk under PostgreSQL, before the load (bench/probes/fsync-probe.mjs, 8 KB + fdatasync at ${d.rate}/s for ${d.flushes} flushes): p50 ${d.p50Ms} ms, p99 ${d.p99Ms} ms, max ${d.maxMs} ms; ${d.over50Ms} flushes over 50 ms, so ${Math.round(d.shareOfArrivalsWaitingOver50Ms * 1000) / 10} % of commits arriving at any moment would wait > 50 ms for the disk alone.\n` : ''}
| scenario | req/s | p50 ms | p99 ms | errors | ÷ (a) | ÷ (b) |${write ? ' ÷ (b-w) |' : ''}${floor ? ' ÷ (c) |' : ''} half load: req/s → ms (median of rounds) |
|---|---|---|---|---|---|---|---|${write ? '---|' : ''}${floor ? '---|' : ''}
${rows.join('\n')}
${requestCostTable(result.requestCosts)}
Webhooks: **${w.deliveriesPerSecond} deliveries/s** sustained by one worker process (${w.attemptsPerJob ?? 1} attempts to a queue job at most) to a local receiver that verifies every signature${w.orderedDeliveriesPerSecond !== undefined ? ` (**${w.orderedDeliveriesPerSecond}/s** with \`ordering: "page"\`, ${w.orderedDrain.pages} pages of ${w.orderedDrain.versions} versions each, one delivery per page at a time)` : ''}${w.ceilingDeliveriesPerSecond ? `, against a ceiling measured in the same run with BullMQ alone and no database (bench/processes/bullmq-baseline.mjs: the same receiver, signer, sender and concurrency) of ${w.ceilingDeliveriesPerSecond}/s with one POST per job and ${w.groupedCeilingDeliveriesPerSecond}/s with ${w.attemptsPerJob} per job` : ''}; at ${w.eventsPerSecond} events/s, API 201 → receiver p50 **${w.latencyP50Ms} ms**, p99 **${w.latencyP99Ms} ms** (${w.delivered} events, ${w.badSignatures} bad signatures${w.fromCreationP50Ms !== undefined ? `; from the event's creation in the API, which adds the API's own answer time: p50 ${w.fromCreationP50Ms} ms, p99 ${w.fromCreationP99Ms} ms` : ''}).

${webhookCosts(w)}${longPollLine(result.longPoll)}${portalPageLine(result.portalPage)}${historySection(history)}Resident memory under load: API ${result.rssMb.api} MB, worker ${result.rssMb.worker} MB.

![latency against load](performance-latency.svg)

Targets, what was changed and why some are missed: [performance-analysis.md](performance-analysis.md).

Raw results: \`bench/results/latest.json\` (and a dated copy), in the shape
\`{ machine, scenarios: [{ name, rps, p50Ms, p99Ms, errors, ratioToBareNest, ratioToRawPg${write ? ', ratioToRawWrite' : ''} }], webhooks, rssMb }\`.
${soakSection(soak)}`;
}

/** `npm run bench:history` (bench/history.mjs), when it was run: this build beside the one before history was kept by day. */
function historySection(history) {
  if (!history) return '';
  const { current, before } = history;
  const was = new Map((before?.scenarios ?? []).map((s) => [s.name, s]));
  const rows = current.scenarios.map((s) => {
    const b = was.get(s.name);
    return `| ${s.name} | ${s.maxRps} | ${s.halfRps} | ${s.p50Ms} | **${s.p99Ms}** (${s.p99MsEachRound.join(', ')}) | ${s.errors} |${before ? ` ${b ? `${b.maxRps}; p99 ${b.p99Ms}` : '—'} |` : ''}`;
  });
  return `History at ${current.days} days (\`npm run bench:history\`, bench/history.mjs, ${current.at.slice(0, 10)}): ${current.events.toLocaleString('en-US')} events, ${current.deliveries.toLocaleString('en-US')} deliveries and ${current.attempts.toLocaleString('en-US')} attempts, a partition a day, through the API process; maximum with wrk, then latency at half of it with the open-loop generator; medians of ${current.scenarios[0]?.p99MsEachRound.length ?? 1} interleaved rounds, nothing pinned.${before ? ' Beside it, the build before history was kept by day (one table each), on the same data, measured right before.' : ''}

| scenario | max req/s | half load req/s | p50 ms | p99 ms (rounds) | errors |${before ? ' before: max req/s; p99 ms |' : ''}
|---|---|---|---|---|---|${before ? '---|' : ''}
${rows.join('\n')}

`;
}

function round1(n) {
  return Math.round(n * 10) / 10;
}

/** The portal page in Chromium (bench/lib/portal-page.mjs), when the run measured it. */
function portalPageLine(p) {
  if (!p) return '';
  return `Portal page in Chromium (bench/lib/portal-page.mjs), ${p.runs} sessions of the sample tenant (${p.deliveries ?? 'its'} deliveries): opening the link to the subscriptions shown p50 **${p.linkToSubscriptions.p50Ms} ms**, p95 ${p.linkToSubscriptions.p95Ms} ms; pressing Deliveries to the first delivery drawn p50 **${p.deliveriesTabToFirstRow.p50Ms} ms**, p95 ${p.deliveriesTabToFirstRow.p95Ms} ms.\n\n`;
}

/** The event feed's long poll (bench/lib/long-poll.mjs), when the run measured it. */
function longPollLine(l) {
  if (!l) return '';
  return `Event feed, long poll (bench/lib/long-poll.mjs): ${l.consumers} consumers parked on \`GET /v0/events?order=asc&wait=30\` cost the API ${round1(l.apiRssParkedMb - l.apiRssIdleMb)} MB resident (${l.apiRssIdleMb} → ${l.apiRssParkedMb} MB); at ${l.eventsPerSecond} events/s made through the API, 201 → consumer p50 **${l.p50Ms} ms**, p99 **${l.p99Ms} ms**, max ${l.maxMs} ms (${l.delivered} of ${l.events} events, ${l.errors} errors).\n\n`;
}
