import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { PageSession, PageSessionRepository, UTM_KINDS } from '../../../domain/page/page-session';
import { sqlRows } from '../sql-statement';

@Injectable()
export class SqlPageSessionRepository extends PageSessionRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async saveNew(session: PageSession): Promise<void> {
    const { utm } = session;
    await this.em.transactional(async (em) => {
      await sqlRows(
        em,
        `INSERT INTO page_sessions (id, tenant_id, page_id, page_group_id, utm_source, utm_medium, utm_campaign, utm_term, utm_content, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [session.id, session.tenantId, session.pageId, session.pageGroupId, utm.source ?? null, utm.medium ?? null, utm.campaign ?? null, utm.term ?? null, utm.content ?? null, session.createdAt],
      );
      const kinds = UTM_KINDS.filter((kind) => utm[kind] !== undefined);
      if (kinds.length === 0) return;
      await sqlRows(em, RECORD_UTM_VALUES, [kinds, kinds.map((kind) => utm[kind]), session.pageGroupId, session.createdAt]);
    });
  }
}

/**
 * Keeps the group's distinct values current, so reading them never scans the sessions: one index
 * upsert per value, whatever the group holds (decisions.md 64). A value's `last_seen_at` moves at
 * most hourly, so a busy value does not rewrite its row on every visit. When a value is new or
 * moved, the group summary's generation moves on, and the next read renders it again.
 */
const RECORD_UTM_VALUES = `
    WITH seen (kind, value) AS (SELECT * FROM unnest($1::text[], $2::text[])),
    p AS (SELECT $3::text AS page_group_id, $4::timestamptz AS seen_at),
    moved AS (
      INSERT INTO page_group_utm_values (page_group_id, kind, value, last_seen_at)
      SELECT p.page_group_id, seen.kind, seen.value, p.seen_at FROM seen, p
      ON CONFLICT (page_group_id, kind, value) DO UPDATE SET last_seen_at = excluded.last_seen_at
        WHERE page_group_utm_values.last_seen_at < excluded.last_seen_at - interval '1 hour'
      RETURNING 1)
    INSERT INTO page_group_utm_summaries (page_group_id, generation)
    SELECT page_group_id, 1 FROM p WHERE EXISTS (SELECT 1 FROM moved)
    ON CONFLICT (page_group_id) DO UPDATE SET generation = page_group_utm_summaries.generation + 1`;
