import { Injectable } from '@nestjs/common';
import { PageVersion } from '../../domain/page/page-version';
import { PageRepository, PageVersionRepository } from '../../domain/page/page.repository';
import { Clock } from '../../domain/shared/clock';
import { ConcurrentChangeError } from '../../domain/shared/domain-error';
import { foundOrFail } from '../shared/found-or-fail';

const ATTEMPTS = 5;

/** Platform side: a new version of a page, which emits `page.version.created`. */
@Injectable()
export class CreatePageVersion {
  constructor(
    private readonly pages: PageRepository,
    private readonly versions: PageVersionRepository,
    private readonly clock: Clock,
  ) {}

  async execute(input: { tenantId: string; pageId: string }): Promise<{ pageVersionId: string; pageId: string; version: number }> {
    const page = await foundOrFail('page', 'pagevar', input.pageId, () => this.pages.findById(input.tenantId, input.pageId));
    // Two versions made at once may pick the same number; the loser reads the new latest and retries.
    for (let attempt = 1; ; attempt++) {
      const version = PageVersion.next(page, await this.versions.latestNumber(page.tenantId, page.id), this.clock.now());
      try {
        await this.versions.saveNew(version);
        return { pageVersionId: version.id, pageId: page.id, version: version.number };
      } catch (error) {
        if (!(error instanceof ConcurrentChangeError) || attempt === ATTEMPTS) throw error;
      }
    }
  }
}
