// Every test process talks to the same test database, created fresh by global-setup.ts.
// Tests isolate themselves by making their own tenant, as the service does for customers.
import 'reflect-metadata';
import { testDatabaseUrl } from './test-database-url';

process.env.DATABASE_URL = testDatabaseUrl();
process.env.LOG_LEVEL ??= 'silent';
