import { Injectable } from '@nestjs/common';
import { PortalSessionRepository } from '../../domain/portal/portal-session-repository.port';
import { Clock } from '../../domain/shared/clock.port';
import { foundOrFail } from '../shared/found-or-fail';
import { ListRequest, ListSlice, toSlice } from '../shared/pagination';
import { UnitOfWork } from '../shared/unit-of-work.port';
import { PortalSessionView, toPortalSessionView } from './portal-session.view';

/** A tenant's portal sessions, newest first, live or not (GET /v0/portal_sessions). */
@Injectable()
export class ListPortalSessions {
  constructor(
    private readonly sessions: PortalSessionRepository,
    private readonly clock: Clock,
  ) {}

  async execute(input: { tenantId: string; page: ListRequest }): Promise<ListSlice<PortalSessionView>> {
    const now = this.clock.now();
    const found = await this.sessions.listByTenant(input.tenantId, { after: input.page.after, limit: input.page.limit + 1 });
    return toSlice(found.map((session) => toPortalSessionView(session, now)), input.page.limit, (view) => view.id);
  }
}

/** One portal session of the tenant (GET /v0/portal_sessions/{id}). */
@Injectable()
export class GetPortalSession {
  constructor(
    private readonly sessions: PortalSessionRepository,
    private readonly clock: Clock,
  ) {}

  async execute(input: { tenantId: string; id: string }): Promise<PortalSessionView> {
    const session = await foundOrFail('portal session', 'portal', input.id, (id) => this.sessions.findById(input.tenantId, id));
    return toPortalSessionView(session, this.clock.now());
  }
}

/** Revokes a portal session: its page stops at its next request (DELETE /v0/portal_sessions/{id}). */
@Injectable()
export class RevokePortalSession {
  constructor(
    private readonly sessions: PortalSessionRepository,
    private readonly clock: Clock,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  execute(input: { tenantId: string; id: string }): Promise<PortalSessionView> {
    return this.unitOfWork.run(async () => {
      const session = await foundOrFail('portal session', 'portal', input.id, (id) => this.sessions.findById(input.tenantId, id, { forUpdate: true }));
      const now = this.clock.now();
      session.revoke(now);
      await this.sessions.save(session);
      return toPortalSessionView(session, now);
    });
  }
}
