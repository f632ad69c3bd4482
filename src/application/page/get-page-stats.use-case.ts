import { Injectable } from '@nestjs/common';
import { UTM_KINDS } from '../../domain/page/page-session';
import { bucketStarts, StatsInterval, statsRange } from '../../domain/page/stats-range';
import { Clock } from '../../domain/shared/clock.port';
import { assertActiveGroup } from '../page-group/active-group';
import { PageGroupQueries } from '../page-group/page-group-queries.port';
import { foundOrFail } from '../shared/found-or-fail';
import { PageQueries } from './page-queries.port';
import { PAGE_STATS_TOP_VALUES, PageStatsView, UtmValueCount } from './page.view';

@Injectable()
export class GetPageStats {
  constructor(
    private readonly groups: PageGroupQueries,
    private readonly pages: PageQueries,
    private readonly clock: Clock,
  ) {}

  async execute(input: { tenantId: string; pageGroupId: string; pageId: string; from?: Date; to?: Date; interval?: StatsInterval }): Promise<PageStatsView> {
    const range = statsRange(input, this.clock.now());
    await assertActiveGroup(this.groups, input.tenantId, input.pageGroupId);
    await foundOrFail('page', 'pagevar', input.pageId, () => this.pages.isInGroup(input.tenantId, input.pageGroupId, input.pageId));
    const { buckets, utm, utmApproximate } = await this.pages.stats(input.tenantId, input.pageId, range, PAGE_STATS_TOP_VALUES);
    const byStart = new Map(buckets.map((b) => [b.start.getTime(), b.sessions]));
    const series = bucketStarts(range).map((start) => ({ start: start.toISOString(), sessions: byStart.get(start.getTime()) ?? 0 }));
    const tops = Object.fromEntries(UTM_KINDS.map((kind) => [`utm_${kind}s`, [] as UtmValueCount[]])) as PageStatsView['utm'];
    for (const { kind, value, sessions } of utm) tops[`utm_${kind}s`].push({ value, sessions });
    return {
      pageId: input.pageId,
      interval: range.interval,
      from: range.from.toISOString(),
      to: range.to.toISOString(),
      total: series.reduce((sum, b) => sum + b.sessions, 0),
      series,
      utm: tops,
      utmApproximate: utmApproximate.map((kind) => `utm_${kind}s` as const),
    };
  }
}
