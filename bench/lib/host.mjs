// The changes a run may make to the machine, each only when its flag asks for it, each undone
// when the run ends (--pin, --autovacuum, --statements; bench/lib/options.mjs).
import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { moveHelperThreads } from './helper-threads.mjs';
import { pinServices } from './pin-services.mjs';

export function hostChanges(options, log) {
  let undo = [];
  const pin = options.hostChanges.pin;
  return {
    /**
     * The open-loop generator's command prefix: the top CPU priority of its core when pinned (it
     * shares core 1 with PostgreSQL and Redis, and a request it sends late is counted late; at
     * top priority it sends as soon as a request is due and sleeps again, decisions.md 57).
     */
    generatorPriority: pin && spawnSync('nice', ['-n', '-20', 'true'], { encoding: 'utf8' }).stderr === '' ? ['nice', '-n', '-20'] : [],

    /**
     * --autovacuum: a server set up for tests may run with autovacuum off (this kind of machine
     * does); a production server never would, and without it the dead versions of rows that the
     * writes update (a group's page counter, thousands of times a round) pile up for the whole run
     * and slow every later read of them.
     */
    async autovacuum() {
      const client = new pg.Client({ connectionString: options.databaseUrl });
      await client.connect();
      try {
        const { rows } = await client.query("SELECT setting FROM pg_settings WHERE name = 'autovacuum'");
        if (rows[0].setting === 'on') return;
        if (!options.hostChanges.autovacuum) {
          log('autovacuum is off on this server and stays off (--autovacuum turns it on for the run)');
          return;
        }
        await client.query('ALTER SYSTEM SET autovacuum = on');
        await client.query('SELECT pg_reload_conf()');
        log('autovacuum was off on this server: on for the run, restored afterwards');
        undo.push(() => spawnSync('psql', [options.databaseUrl, '-qc', 'ALTER SYSTEM RESET autovacuum', '-c', 'SELECT pg_reload_conf()'], { stdio: 'ignore' }));
      } finally {
        await client.end();
      }
    },

    /**
     * --statements: pg_stat_statements loaded for the run, so that the drains print PostgreSQL's
     * statements per delivery (bench/lib/drain-cost.mjs). Loading it takes a restart of the
     * server: done before anything of the run connects, and again after the run to unload it.
     * Refused (not the server's owner, no pg_ctlcluster): the run goes on and prints
     * transactions per delivery only.
     */
    async loadStatementStats() {
      // The server's own database: on a fresh machine the bench's is not made yet.
      const server = maintenanceUrl(options.databaseUrl);
      const client = new pg.Client({ connectionString: server });
      await client.connect();
      let loaded, major, port;
      try {
        const { rows } = await client.query("SELECT current_setting('shared_preload_libraries') AS loaded, current_setting('server_version_num')::int / 10000 AS major, current_setting('port') AS port");
        ({ loaded, major, port } = rows[0]);
        if (loaded.split(',').map((l) => l.trim()).includes('pg_stat_statements')) return;
        if (!options.hostChanges.statements) {
          log('pg_stat_statements is not loaded: the drains print transactions, not statements (--statements loads it for the run)');
          return;
        }
        await client.query(`ALTER SYSTEM SET shared_preload_libraries = '${loaded ? `${loaded},` : ''}pg_stat_statements'`);
      } finally {
        await client.end();
      }
      const restart = () => restartCluster(major, port, server);
      const unset = () => spawnSync('psql', [server, '-qc', 'ALTER SYSTEM RESET shared_preload_libraries'], { stdio: 'ignore' });
      if (!restart()) {
        unset();
        log('pg_stat_statements could not be loaded (PostgreSQL was not restarted): the drains print transactions, not statements');
        return;
      }
      log('pg_stat_statements loaded for the run (PostgreSQL restarted; restarted again afterwards to unload it)');
      undo.push(() => {
        unset();
        restart();
      });
    },

    /** --pin: PostgreSQL and Redis onto core 1 (bench/lib/pin-services.mjs says why) until `unpinServices`. */
    async pinServices() {
      if (!pin) return;
      const unpin = await pinServices({ databaseUrl: options.databaseUrl, redisUrl: options.redisUrl, core: 1, log });
      undo.push(unpin);
      this.unpinServices = () => {
        unpin();
        undo = undo.filter((u) => u !== unpin);
      };
    },
    unpinServices() {},

    /** --pin: the API's V8 helper threads beside its JavaScript thread, on core 1 (decisions.md 60); how many moved. */
    moveApiHelperThreads(pid) {
      if (!pin) return 0;
      const moved = moveHelperThreads(pid, 1);
      log(moved > 0 ? `the API's ${moved} V8 helper threads moved to core 1` : "the API's V8 helper threads could not be moved: they share core 0");
      return moved;
    },

    /** Puts back everything changed. */
    restore() {
      for (const u of undo.splice(0)) u();
    },
  };
}

/** Restarts the local cluster that listens on `port` (Debian's pg_ctlcluster) and waits until it answers; false when it could not. */
/** The same server's `postgres` database. */
function maintenanceUrl(databaseUrl) {
  const url = new URL(databaseUrl);
  url.pathname = '/postgres';
  return url.toString();
}

function restartCluster(major, port, databaseUrl) {
  const clusters = spawnSync('pg_lsclusters', ['--no-header'], { encoding: 'utf8' });
  const line = (clusters.stdout ?? '').split('\n').map((l) => l.trim().split(/\s+/)).find((f) => f[0] === String(major) && f[2] === String(port));
  if (!line) return false;
  if (spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', line[0], line[1], 'restart'], { stdio: 'ignore' }).status !== 0) return false;
  for (let i = 0; i < 120; i++) {
    if (spawnSync('psql', [databaseUrl, '-qAtc', 'SELECT 1'], { stdio: 'ignore' }).status === 0) return true;
    spawnSync('sleep', ['0.25']);
  }
  return false;
}
