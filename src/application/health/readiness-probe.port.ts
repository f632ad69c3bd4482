/**
 * Reports the dependencies the API uses. Throws when one it cannot work without (the database)
 * does not answer; dependencies it can serve without (Redis: rate limits fail open) are reported.
 */
export abstract class ReadinessProbe {
  abstract check(): Promise<Record<string, 'ok' | 'unavailable'>>;
}
