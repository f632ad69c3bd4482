// The list query of GET /v0/brands in raw SQL, and its answer built from the rows: what baselines
// (b) and (c) of `npm run bench` both run. Each row's response JSON is stored with it by every
// writer (view_json, decisions.md 77), so the raw answer is their text.
export const RAW_BRANDS_SQL = `SELECT id, view_json FROM brands WHERE tenant_id = $1 ORDER BY id DESC LIMIT 21`;

export function rawBrandList(rows: { view_json: string }[]): string {
  return `{"items":[${rows.slice(0, 20).map((row) => row.view_json).join(',')}],"hasMore":${rows.length > 20}}`;
}
