/** Budgets from configuration (RATE_LIMIT_MAX, RATE_LIMIT_WINDOW_SECONDS, RATE_LIMIT_AUTH_FAILURES_MAX). */
export abstract class RateLimitSettings {
  abstract readonly max: number;
  abstract readonly windowSeconds: number;
  abstract readonly authFailuresMax: number;
}
