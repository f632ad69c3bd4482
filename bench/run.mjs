// `npm run bench`: seeds a realistic data set, starts the production build, and measures every
// endpoint against two baselines measured in the same run, then webhooks end to end and memory;
// last, bench/utm-at-scale.mjs. Options: bench/lib/options.mjs (host changes only when asked).
// The parts: lib/options (arguments), lib/services (processes and database), lib/host (the
// flagged host changes), lib/scenarios, lib/measure (the API), lib/webhooks, lib/stats and
// lib/report (what is printed and recorded). Load generators: wrk (closed loop) and
// bench/processes/open-loop.c (constant rate), one per model (decisions.md 78).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { hostChanges } from './lib/host.mjs';
import { recordedHistory } from './lib/history-record.mjs';
import { measureEndpoints } from './lib/measure.mjs';
import { OptionsError, parseOptions } from './lib/options.mjs';
import { recordedSoak } from './soak/record.mjs';
import { chart, markdown, table } from './lib/report.mjs';
import { BASELINES, endpointScenarios } from './lib/scenarios.mjs';
import { BASE, createServices, ROOT } from './lib/services.mjs';
import { round, scenarioLines } from './lib/stats.mjs';
import { benchWebhooks } from './lib/webhooks.mjs';
import { benchLongPoll } from './lib/long-poll.mjs';
import { benchPortalPage } from './lib/portal-page.mjs';

const LONG_POLL = 'long poll (event feed)';
import { missingTools } from './lib/generators.mjs';

const log = (line) => process.stderr.write(`${line}\n`);

let options;
try {
  options = parseOptions(process.argv.slice(2), process.env);
} catch (error) {
  if (!(error instanceof OptionsError)) throw error;
  log(error.message);
  process.exit(2);
}

function writeRecorded(result) {
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  const text = `${JSON.stringify(result, null, 2)}\n`;
  writeFileSync(join(ROOT, 'bench', 'results', 'latest.json'), text);
  writeFileSync(join(ROOT, 'bench', 'results', `${new Date().toISOString().slice(0, 10)}.json`), text);
  writeReport(result);
}

function writeReport(result) {
  writeFileSync(join(ROOT, 'docs', 'performance-latency.svg'), chart(result.latencyCurve));
  writeFileSync(join(ROOT, 'docs', 'performance.md'), markdown(result, recordedSoak(ROOT), recordedHistory(ROOT)));
}

async function main(services, host) {
  const started = Date.now();
  const missing = missingTools();
  if (missing.length > 0) throw new Error(`missing: ${missing.join('; ')}`);
  log('building…');
  if (spawnSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' }).status !== 0) throw new Error('build failed');
  await host.loadStatementStats();
  const seed = await services.seedOnce();
  await services.settleDatabase();
  await host.autovacuum();
  const diskFlush = services.probeDiskFlush();
  const { tenantId, apiKey, brandId, pageGroupId, templateId, pageId, widePageGroupId, widePageId, deliverySubscriptionId } = seed.sample;
  const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };

  await host.pinServices();
  const api = await services.startService('api', 0);
  // Baselines and endpoints run in this one process, so their ratios compare like with like.
  const helperThreads = host.moveApiHelperThreads(api.pid);
  const stopApiRss = services.sampleRss(api.pid);
  const tenantBrands = await (await fetch(`${BASE}/v0/brands?limit=100`, { headers })).json();
  const brandEtag = (await fetch(`${BASE}/v0/brands/${brandId}`, { headers })).headers.get('etag');
  const patchPaths = tenantBrands.items.filter((b) => b.brandId !== brandId).map((b) => `/v0/brands/${b.brandId}`);
  const scenarios = endpointScenarios({ tenantId, brandId, brandEtag, pageGroupId, templateId, pageId, widePageGroupId, widePageId, deliverySubscriptionId, patchPaths }, options.only);
  const measured = await measureEndpoints({ services, host, options, log, scenarios, headers, apiPid: api.pid });
  const apiRss = stopApiRss();

  let webhooks = { summary: {}, workerRss: 0 };
  if (options.webhooks) {
    // The worker's throughput is mostly PostgreSQL's work: the database gets both cores back.
    host.unpinServices();
    log('webhooks…');
    webhooks = await benchWebhooks({ services, host, options, log, headers, pageGroupId });
  }
  // The event feed's long poll, against the same API process (its resident memory with 1,000 parked reads).
  const longPoll = options.webhooks && (!options.only || LONG_POLL.includes(options.only)) ? await benchLongPoll({ services, options, log, apiPid: api.pid }) : null;
  const portalPage = !options.only || 'portal page'.includes(options.only) ? await benchPortalPage({ base: BASE, headers, log }) : null;
  if (portalPage) portalPage.deliveries = seed.deliveries;
  await services.stopProcess(api);
  const utmAtScale = !options.only || 'utm at scale'.includes(options.only) ? services.utmAtScale() : null;

  const result = {
    // The seed's sizes only: its sample key stays out of the results, which are committed.
    machine: {
      cpus: cpus().length, cpuModel: cpus()[0]?.model, memoryGb: round(totalmem() / 2 ** 30), node: process.version,
      loadGenerator: 'wrk', openLoopGenerator: 'c', openLoopPriority: host.generatorPriority.length > 0 ? 'nice -20' : 'default',
      apiHelperThreadsCore: helperThreads > 0 ? 1 : 0, hostChanges: options.hostChanges,
      quick: options.quick, durationSeconds: options.durationSeconds, rounds: options.rounds, seed: { ...seed, sample: undefined }, diskFlush,
    },
    scenarios: scenarioLines(scenarios, measured.maximum, measured.half, BASELINES, measured.rawPgRatios, measured.rawWriteRatios),
    latencyCurve: measured.latencyCurve,
    requestCosts: measured.requestCosts,
    webhooks: webhooks.summary,
    longPoll,
    portalPage,
    rssMb: { api: apiRss, worker: webhooks.workerRss },
    utmAtScale,
    seconds: Math.round((Date.now() - started) / 1000),
  };
  if (options.recorded) writeRecorded(result);
  else {
    mkdirSync(join(ROOT, 'bench', 'data'), { recursive: true });
    writeFileSync(join(ROOT, 'bench', 'data', 'last-partial-run.json'), `${JSON.stringify(result, null, 2)}\n`);
  }
  process.stdout.write(table(result, options.recorded));
}

if (options.reportOnly) {
  writeReport(JSON.parse(readFileSync(join(ROOT, 'bench', 'results', 'latest.json'), 'utf8')));
  process.exit(0);
}
const services = createServices(options, log);
const host = hostChanges(options, log);
const cleanUp = () => {
  host.restore();
  services.killAll();
};
process.once('SIGINT', () => {
  cleanUp();
  process.exit(130);
});
// A failure outside main's promise (a rejected request nobody awaited yet) still stops the run's
// processes: left running, they answered the next run in place of its own.
for (const event of ['uncaughtException', 'unhandledRejection']) {
  process.once(event, (error) => {
    log(`bench failed: ${error?.stack ?? error}`);
    cleanUp();
    process.exit(1);
  });
}
main(services, host)
  .catch((error) => {
    log(`bench failed: ${error.stack ?? error}`);
    process.exitCode = 1;
  })
  .finally(cleanUp);
