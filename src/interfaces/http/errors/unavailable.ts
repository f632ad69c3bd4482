// Errors that mean "the database cannot be reached right now" rather than "this request is
// wrong": they become 503 with Retry-After, not 500. Matched by shape so the HTTP adapter need not
// import the driver. Codes: Node socket errors, PostgreSQL classes 08 (connection) and 57P
// (operator intervention: shutdown, cannot connect now), and 57014 (a statement cancelled by
// DATABASE_STATEMENT_TIMEOUT_MS: the database is too slow to answer now).
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN']);
const MESSAGES = [/connection terminated/i, /Connection refused/i, /timeout exceeded when trying to connect/i, /server closed the connection/i, /Client has encountered a connection error/i];

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false;
  const candidate = error as { code?: unknown; message?: unknown; name?: unknown; cause?: unknown; errors?: unknown };
  const code = typeof candidate.code === 'string' ? candidate.code : '';
  if (NETWORK_CODES.has(code) || code.startsWith('08') || code.startsWith('57P') || code === '57014') return true;
  if (candidate.name === 'ConnectionException') return true;
  if (typeof candidate.message === 'string' && MESSAGES.some((pattern) => pattern.test(candidate.message as string))) return true;
  if (Array.isArray(candidate.errors) && candidate.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(candidate.cause, depth + 1);
}
