import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { PageSession, PageSessionRepository, UTM_KINDS } from '../../../domain/page/page-session';

@Injectable()
export class SqlPageSessionRepository extends PageSessionRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async saveNew(session: PageSession): Promise<void> {
    const { utm } = session;
    await this.em.transactional(async (em) => {
      await em.execute(
        `INSERT INTO page_sessions (id, tenant_id, page_id, page_group_id, utm_source, utm_medium, utm_campaign, utm_term, utm_content, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [session.id, session.tenantId, session.pageId, session.pageGroupId, utm.source ?? null, utm.medium ?? null, utm.campaign ?? null, utm.term ?? null, utm.content ?? null, session.createdAt],
        'run',
      );
      const kinds = UTM_KINDS.filter((kind) => utm[kind] !== undefined);
      if (kinds.length === 0) return;
      // Keeps the group's distinct values current, so reading them never scans the sessions.
      await em.execute(
        `INSERT INTO page_group_utm_values (page_group_id, kind, value) VALUES ${kinds.map(() => '(?, ?, ?)').join(', ')} ON CONFLICT DO NOTHING`,
        kinds.flatMap((kind) => [session.pageGroupId, kind, utm[kind]]),
        'run',
      );
    });
  }
}
