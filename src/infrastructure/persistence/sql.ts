// Small SQL helpers for the read side, which answers in the response shape without hydrating
// entities (../shared/toolchain.md measured that at ~3x the cost of raw rows).

/** A timestamptz column as the API's ISO 8601 string, made by PostgreSQL. */
export function isoTimestamp(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}
