import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { PageSession, UTM_KINDS } from '../../../domain/page/page-session';
import { PageSessionRepository } from '../../../domain/page/page-session-repository.port';
import { requireTransaction, sqlRows } from '../connection/sql-statement';
import { schema } from '../typed/database';
import { typedStatement } from '../typed/statement';
import { COUNT_SESSION, LOCK_UTM_VALUES, RECORD_UTM_VALUES } from './page-session-counters.sql';

type Recorded = { id: string; tenantId: string; pageId: string; pageGroupId: string; createdAt: Date } & Record<`utm_${(typeof UTM_KINDS)[number]}`, string | null>;
const ADD = typedStatement<Recorded>()((arg) =>
  schema.insertInto('page_sessions').values({
    id: arg('id'), tenant_id: arg('tenantId'), page_id: arg('pageId'), page_group_id: arg('pageGroupId'),
    utm_source: arg('utm_source'), utm_medium: arg('utm_medium'), utm_campaign: arg('utm_campaign'), utm_term: arg('utm_term'), utm_content: arg('utm_content'),
    created_at: arg('createdAt'),
  }),
);

@Injectable()
export class SqlPageSessionRepository extends PageSessionRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async add(session: PageSession): Promise<void> {
    const { utm } = session;
    requireTransaction(this.em, 'recording a session');
    await ADD.count(this.em, {
      id: session.id, tenantId: session.tenantId, pageId: session.pageId, pageGroupId: session.pageGroupId, createdAt: session.createdAt,
      utm_source: utm.source ?? null, utm_medium: utm.medium ?? null, utm_campaign: utm.campaign ?? null, utm_term: utm.term ?? null, utm_content: utm.content ?? null,
    });
    const kinds = UTM_KINDS.filter((kind) => utm[kind] !== undefined);
    const values = kinds.map((kind) => utm[kind]);
    if (kinds.length > 0) await sqlRows(this.em, LOCK_UTM_VALUES, [session.pageId, kinds, values, session.createdAt]);
    await sqlRows(this.em, COUNT_SESSION, [session.pageId, session.createdAt, kinds, values]);
    if (kinds.length === 0) return;
    await sqlRows(this.em, RECORD_UTM_VALUES, [kinds, kinds.map((kind) => utm[kind]), session.pageGroupId, session.createdAt]);
  }
}

