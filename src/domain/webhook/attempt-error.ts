/**
 * Why an attempt failed, as a person reading the delivery log filters and reads it: the receiver
 * answered with a status that is not 2xx, gave no answer in time, the connection failed, or the
 * target is unreachable or not allowed (one kind, so the log cannot tell names that do not resolve
 * from names the address policy refuses). The messages are the sender's, fixed here so that the
 * kind is read back from what the log keeps.
 */
export type AttemptErrorKind = 'http_status' | 'timeout' | 'connection' | 'unreachable';

export const ATTEMPT_ERROR_KINDS: readonly AttemptErrorKind[] = ['http_status', 'timeout', 'connection', 'unreachable'];

export const TARGET_UNREACHABLE = 'target not reachable or not allowed';
const TIMEOUT_PREFIX = 'no answer within ';
const CONNECTION_FAILED = 'connection failed';

export function timeoutMessage(timeoutMs: number): string {
  return `${TIMEOUT_PREFIX}${timeoutMs} ms`;
}

export function connectionFailedMessage(code?: string): string {
  return code ? `${CONNECTION_FAILED} (${code})` : CONNECTION_FAILED;
}

/** The kind of an attempt's failure from its status code and message; null for a success (2xx). */
export function attemptErrorKind(statusCode: number | null, error: string | null): AttemptErrorKind | null {
  if (statusCode !== null) return statusCode >= 200 && statusCode <= 299 ? null : 'http_status';
  if (error === TARGET_UNREACHABLE) return 'unreachable';
  if (error?.startsWith(TIMEOUT_PREFIX)) return 'timeout';
  return 'connection';
}
