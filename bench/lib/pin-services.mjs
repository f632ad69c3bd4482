// Moves PostgreSQL and Redis onto the load generator's core for the length of a run, so that the
// API has core 0 to itself. Left free, Linux places a woken PostgreSQL backend next to the API
// process that woke it: the two then share one core for stretches of 0.1–1 s, and every request
// in such a stretch queues (p99 at half load 60–90 ms against 10–15 ms pinned, same build). In
// production the database is on other hardware; this is the closest a 2-core machine gets.
// The original affinity is put back when the run ends, whatever happens.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import pg from 'pg';
import IORedis from 'ioredis';

export async function pinServices({ databaseUrl, redisUrl, core, log }) {
  // The postmaster first: the restore below finds the backends through it.
  const pids = [...(await postgresPids(databaseUrl)), ...(await redisPids(redisUrl))];
  const before = new Map(pids.map((pid) => [pid, affinity(pid)]).filter(([, mask]) => mask));
  const moved = [...before.keys()].filter((pid) => setAffinity(pid, String(core)));
  if (moved.length > 0) log(`PostgreSQL and Redis pinned to core ${core} for the run (${moved.length} processes)`);
  else log('PostgreSQL and Redis could not be pinned (taskset refused): they share the cores');
  const postmaster = pids[0];
  return () => {
    for (const pid of moved) setAffinity(pid, before.get(pid));
    // Backends forked while the postmaster was pinned inherited its core: they get its mask back.
    if (before.has(postmaster)) for (const pid of childrenOf(postmaster)) setAffinity(pid, before.get(postmaster));
  };
}

async function postgresPids(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query('SHOW data_directory');
    const postmaster = Number(readFileSync(`${rows[0].data_directory}/postmaster.pid`, 'utf8').split('\n')[0]);
    // The postmaster and the processes it has forked; backends forked later inherit its affinity.
    return [postmaster, ...childrenOf(postmaster)];
  } catch {
    return [];
  } finally {
    await client.end();
  }
}

async function redisPids(url) {
  const redis = new IORedis(url, { lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await redis.connect();
    const pid = /process_id:(\d+)/.exec(await redis.info('server'))?.[1];
    return pid ? [Number(pid)] : [];
  } catch {
    return [];
  } finally {
    redis.disconnect();
  }
}

function childrenOf(parent) {
  const children = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent) children.push(Number(entry));
    } catch {
      // the process ended while the list was read
    }
  }
  return children;
}

function affinity(pid) {
  const result = spawnSync('taskset', ['-p', '-c', String(pid)], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim().split(': ').pop() : null;
}

function setAffinity(pid, cores) {
  return spawnSync('taskset', ['-a', '-p', '-c', cores, String(pid)], { stdio: 'ignore' }).status === 0;
}
