import { Injectable } from '@nestjs/common';
import { PageSession, PageSessionRepository, UtmValues } from '../../domain/page/page-session';
import { PageRepository } from '../../domain/page/page.repository';
import { Clock } from '../../domain/shared/clock';
import { foundOrFail } from '../shared/found-or-fail';

/** Platform side: records a visit to a page with its UTM values. */
@Injectable()
export class RecordSession {
  constructor(
    private readonly pages: PageRepository,
    private readonly sessions: PageSessionRepository,
    private readonly clock: Clock,
  ) {}

  async execute(input: { tenantId: string; pageId: string; utm: UtmValues }): Promise<{ sessionId: string; pageId: string }> {
    const page = await foundOrFail('page', 'pagevar', input.pageId, () => this.pages.findById(input.tenantId, input.pageId));
    const session = PageSession.record(page, input.utm, this.clock.now());
    await this.sessions.saveNew(session);
    return { sessionId: session.id, pageId: page.id };
  }
}
