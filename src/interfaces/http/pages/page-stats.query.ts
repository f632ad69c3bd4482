import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, Matches } from 'class-validator';
import { STATS_INTERVALS, type StatsInterval } from '../../../domain/page/stats-range';
import { Optional } from '../validation/decorators';

const DATE_TIME = 'must be an ISO 8601 date (UTC) or date-time with its offset, e.g. 2026-11-01T00:00:00Z';
// A date-time without an offset would be read in the server's time zone: refused, not guessed.
const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}(T[^Z+-]*(Z|[+-]\d{2}:?\d{2}))?$/;

export class PageStatsQueryDto {
  @ApiPropertyOptional({ format: 'date-time', description: 'Start of the range, moved back to the start of its UTC day or hour. Default: 30 days (interval=day) or 24 hours (interval=hour) before `to`.' })
  @Optional()
  @Matches(WITH_OFFSET, { message: DATE_TIME })
  @IsISO8601({ strict: true, strictSeparator: true }, { message: DATE_TIME })
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'End of the range (exclusive), moved forward to the end of its UTC day or hour. Default: the end of the current day or hour.' })
  @Optional()
  @Matches(WITH_OFFSET, { message: DATE_TIME })
  @IsISO8601({ strict: true, strictSeparator: true }, { message: DATE_TIME })
  to?: string;

  @ApiPropertyOptional({ enum: STATS_INTERVALS, default: 'day', description: 'Bucket size. At most 90 days by day, 7 days by hour.' })
  @Optional()
  @IsIn(STATS_INTERVALS, { message: `must be one of: ${STATS_INTERVALS.join(', ')}` })
  interval?: StatsInterval;
}
