import { EntityManager } from '@mikro-orm/postgresql';
import { UTM_KINDS } from '../../../domain/page/page-session';
import { newTypeId } from '../../../domain/shared/type-id';
import { sqlQuery } from '../connection/sql-statement';
import { SeedBatches, pick } from './seed-batches';
import type { SeededPage } from './seed-catalogue';

// SQL text (decisions.md 184): the bench's page sessions and the UTM values they bring, a batch
// per `unnest` statement.

const VOCABULARY: Record<(typeof UTM_KINDS)[number], string[]> = {
  campaign: Array.from({ length: 200 }, (_, i) => `campaign-${i}`),
  content: Array.from({ length: 100 }, (_, i) => `content-${i}`),
  medium: ['cpc', 'email', 'social', 'organic', 'display', 'affiliate', 'referral', 'video'],
  source: Array.from({ length: 50 }, (_, i) => `source-${i}`),
  term: Array.from({ length: 500 }, (_, i) => `term ${i}`),
};

/** Every session's time is spread evenly over the last 90 days. */
const SPREAD_MS = 90 * 24 * 3_600_000;

export interface SessionsToSeed {
  pages: SeededPage[];
  /** The hot page: the first `hotSessions` sessions all visit it (a page with a million sessions for the statistics scenario). */
  hotPage: SeededPage;
  hotSessions: number;
  sessions: number;
  /** The wide page: `wideSessions` more sessions, each with a utm_content of its own. */
  widePage?: SeededPage;
  wideSessions: number;
  now: Date;
}

/** Writes the sessions and their pages' UTM values; returns how many UTM values were new. */
export async function seedSessions(em: EntityManager, input: SessionsToSeed, batches: SeedBatches): Promise<{ utmValues: number }> {
  const { pages, hotPage, hotSessions, sessions, widePage, wideSessions, now } = input;
  const values = new UtmValuesSeen();
  const timeOf = (i: number, total: number) => new Date(now.getTime() - Math.floor((i * SPREAD_MS) / total));
  await batches('sessions', sessions, async (from, to) => {
    const chosen = Array.from({ length: to - from }, (_, i) => (from + i < hotSessions ? hotPage : pick(pages, (from + i) * 7919)));
    const utm = UTM_KINDS.map((kind) => chosen.map((_, i) => pick(VOCABULARY[kind], (from + i) * (kind.length + 3))));
    await insertSessions(em, chosen, utm, chosen.map((_, i) => timeOf(from + i, sessions)), values, now);
  });
  if (widePage && wideSessions > 0) {
    await batches('sessions with distinct UTM values', wideSessions, async (from, to) => {
      const chosen = Array.from({ length: to - from }, () => widePage);
      const utm = UTM_KINDS.map((kind) => chosen.map((_, i) => (kind === 'content' ? `wide-${from + i}` : null)));
      await insertSessions(em, chosen, utm, chosen.map((_, i) => timeOf(from + i, wideSessions)), values, now);
    });
  }
  return { utmValues: values.count };
}

/** The (group, kind, value) triples already written, so that each batch writes only new ones. */
class UtmValuesSeen {
  private readonly seen = new Set<string>();
  count = 0;

  fresh(chosen: SeededPage[], utm: (string | null)[][]): [string, string, string][] {
    const fresh: [string, string, string][] = [];
    chosen.forEach((page, i) =>
      UTM_KINDS.forEach((kind, k) => {
        const value = utm[k][i];
        const entry = `${page.groupId}|${kind}|${value}`;
        if (value !== null && !this.seen.has(entry)) {
          this.seen.add(entry);
          fresh.push([page.groupId, kind, value]);
        }
      }),
    );
    this.count += fresh.length;
    return fresh;
  }
}

async function insertSessions(em: EntityManager, chosen: SeededPage[], utm: (string | null)[][], times: Date[], values: UtmValuesSeen, now: Date) {
  await sqlQuery(em,
    `INSERT INTO page_sessions (id, tenant_id, page_id, page_group_id, utm_campaign, utm_content, utm_medium, utm_source, utm_term, created_at)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::timestamptz[])`,
    [chosen.map(() => newTypeId('pagesession')), chosen.map((p) => p.tenantId), chosen.map((p) => p.id), chosen.map((p) => p.groupId), ...utm, times],
  );
  const fresh = values.fresh(chosen, utm);
  if (fresh.length === 0) return;
  await sqlQuery(em,
    `WITH added AS (
       INSERT INTO page_group_utm_values (page_group_id, kind, value, last_seen_at)
       SELECT *, $4::timestamptz FROM unnest($1::text[], $2::text[], $3::text[]) ON CONFLICT DO NOTHING
       RETURNING page_group_id)
     INSERT INTO page_group_utm_summaries (page_group_id, generation) SELECT DISTINCT page_group_id, 1 FROM added
     ON CONFLICT (page_group_id) DO UPDATE SET generation = page_group_utm_summaries.generation + 1`,
    [fresh.map((f) => f[0]), fresh.map((f) => f[1]), fresh.map((f) => f[2]), now],
  );
}
