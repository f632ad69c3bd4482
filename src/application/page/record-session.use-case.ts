import { Injectable } from '@nestjs/common';
import { PageSession, UtmValues } from '../../domain/page/page-session';
import { PageSessionRepository } from '../../domain/page/page-session-repository.port';
import { PageRepository } from '../../domain/page/page-repository.port';
import { Clock } from '../../domain/shared/clock.port';
import { foundOrFail } from '../shared/found-or-fail';
import { UnitOfWork } from '../shared/unit-of-work.port';

/** Platform side: records a visit to a page with its UTM values. */
@Injectable()
export class RecordSession {
  constructor(
    private readonly pages: PageRepository,
    private readonly sessions: PageSessionRepository,
    private readonly clock: Clock,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  execute(input: { tenantId: string; pageId: string; utm: UtmValues }): Promise<{ sessionId: string; pageId: string }> {
    return this.unitOfWork.run(async () => {
      const page = await foundOrFail('page', 'pagevar', input.pageId, () => this.pages.findById(input.tenantId, input.pageId));
      const session = PageSession.record(page, input.utm, this.clock.now());
      await this.sessions.add(session);
      return { sessionId: session.id, pageId: page.id };
    });
  }
}
