import type { Response } from 'express';
import type { RateLimitDecision } from '../../../application/rate-limit/rate-limiter.port';
import type { ApiRequest } from '../api-request';
import { ApiError } from '../errors/api-error';

/** Whole seconds until the window resets, at least 1 (RateLimit-Reset and Retry-After). */
export function resetSeconds(decision: RateLimitDecision): number {
  return Math.max(1, Math.ceil(decision.resetMs / 1000));
}

/** The 429 of a budget spent, with its Retry-After. */
export function rateLimited(decision: RateLimitDecision): ApiError {
  const seconds = resetSeconds(decision);
  const retryAt = new Date(Date.now() + seconds * 1000).toISOString();
  return new ApiError(429, 'RATE_LIMITED', `Too many requests; retry after ${seconds} s.`, { retryAfterSeconds: seconds, retryAt }, { 'Retry-After': String(seconds) });
}

/**
 * A 304 answered the request: half a request's cost (decisions.md 176), every second 304 of the
 * key's window taken back off its budget, and RateLimit-Remaining says so when this one was.
 * A function of the request, not a closure the guard leaves on each one: with that closure, each
 * request's objects lived on into the old generation, and V8's collector threads spent 60 % more
 * CPU a PATCH (docs/performance-analysis.md).
 */
export function refundBudget(req: ApiRequest, res: Response): void {
  const admitted = req.admitted;
  if (!admitted || !admitted.refund()) return;
  if (admitted.budget) res.setHeader('RateLimit-Remaining', String(Math.min(admitted.budget.limit, admitted.budget.remaining + 1)));
}
