import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { STATS_INTERVALS, type StatsInterval } from '../../../domain/page/stats-range';
import { IsInstant, Optional } from '../validation/decorators';

const DATE_TIME = 'must be an ISO 8601 date (UTC) or date-time with its offset, e.g. 2026-11-01T00:00:00Z';

export class PageStatsQueryDto {
  @ApiPropertyOptional({ format: 'date-time', description: 'Start of the range, moved back to the start of its UTC day or hour. Default: 30 days (interval=day) or 24 hours (interval=hour) before `to`.' })
  @Optional()
  @IsInstant(DATE_TIME, { dateOnly: true })
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'End of the range (exclusive), moved forward to the end of its UTC day or hour. Default: the end of the current day or hour.' })
  @Optional()
  @IsInstant(DATE_TIME, { dateOnly: true })
  to?: string;

  @ApiPropertyOptional({ enum: STATS_INTERVALS, default: 'day', description: 'Bucket size. At most 90 days by day, 7 days by hour.' })
  @Optional()
  @IsIn(STATS_INTERVALS, { message: `must be one of: ${STATS_INTERVALS.join(', ')}` })
  interval?: StatsInterval;
}
