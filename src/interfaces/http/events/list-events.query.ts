import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, Matches } from 'class-validator';
import { LOGGED_EVENT_TYPES, type LoggedEventType } from '../../../domain/events/event-catalogue';
import { ListQueryDto } from '../pagination/list-query.dto';
import { IsInstant, Optional } from '../validation/decorators';

const WAIT_REASON = 'must be an integer from 0 to 30 (seconds)';
const DATE_TIME = 'must be an ISO 8601 date-time with its offset, e.g. 2026-11-01T00:00:00Z';

export class ListEventsQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: LOGGED_EVENT_TYPES, description: 'Only events of this type.' })
  @Optional()
  @IsIn(LOGGED_EVENT_TYPES, { message: `must be one of: ${LOGGED_EVENT_TYPES.join(', ')}` })
  type?: LoggedEventType;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only events created after this moment (exclusive).', example: '2026-11-01T00:00:00Z' })
  @Optional()
  @IsInstant(DATE_TIME)
  createdAfter?: string;

  @ApiPropertyOptional({
    enum: ['desc', 'asc'],
    default: 'desc',
    description:
      '`desc`: newest first, for browsing. `asc`: the feed, for a polling consumer: events in the order they became visible, never skipping one that ' +
      'committed late; `nextCursor` is always present (the position to resume at), also on an empty page.',
  })
  @Optional()
  @IsIn(['asc', 'desc'], { message: 'must be asc or desc' })
  order?: 'asc' | 'desc';

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: 30,
    default: 0,
    description:
      'With `order=asc` only: seconds to wait for an event when none is past the cursor yet (a long poll). Answers as soon as one arrives, ' +
      'else at the end with an empty page and a `nextCursor` that resumes at the same place. At most 10 waiting reads per tenant: past that, 429.',
  })
  @Optional()
  @IsString({ message: WAIT_REASON })
  @Matches(/^([0-9]|[12][0-9]|30)$/, { message: WAIT_REASON })
  wait?: string;
}
