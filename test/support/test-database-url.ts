/** TEST_DATABASE_URL, or the local PostgreSQL's `landing_api_test` database. */
export function testDatabaseUrl(): string {
  return process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/landing_api_test';
}
