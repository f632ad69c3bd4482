// Every test process talks to the same test database, created fresh by global-setup.ts.
// Tests isolate themselves by making their own tenant, as the service does for customers; the
// webhook tests, whose workers read the whole outbox, get a database of their own.
import 'reflect-metadata';
import { testDatabaseUrl } from './test-database-url';

process.env.DATABASE_URL = testDatabaseUrl();
process.env.LOG_LEVEL ??= 'silent';
// A fixed key so no test writes a development key file into the work tree.
process.env.SECRETS_ENCRYPTION_KEY ??= Buffer.alloc(32, 7).toString('base64');
