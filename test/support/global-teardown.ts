/** The test database is left in place after a run, for looking into a failure. */
export default async function globalTeardown(): Promise<void> {}
