// A fresh database of a build that keeps history by day holds days from today on. A bench that
// measures a deployment that has run for a while lays out `days` days before today, each a
// partition of its own, and makes `_before` again below the first (it is empty in a fresh
// database). `history` is the build's own dist/…/history-tables.js, so each build lays out its own
// tables; `sql` a connected pg client.

/** Lays out the days; answers the first day's start (ms). */
export async function layOutPastDays(sql, history, days, today = history.dayStart(Date.now())) {
  const first = today - days * history.DAY_MS;
  for (const table of history.WEBHOOK_HISTORY) {
    const before = history.beforePartition(table);
    await sql.query(`ALTER TABLE ${table.table} DETACH PARTITION ${before}`);
    await sql.query(`DROP TABLE ${before}`);
    for (let day = first; day < today; day += history.DAY_MS) await sql.query(history.createDaySql(table, day));
    const firstBound = /FROM \('([^']+)'\)/.exec(history.createDaySql(table, first))[1];
    await sql.query(`CREATE TABLE ${before} PARTITION OF ${table.table} FOR VALUES FROM (MINVALUE) TO ('${firstBound}')`);
  }
  return first;
}
