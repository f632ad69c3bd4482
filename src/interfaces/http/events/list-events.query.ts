import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { LOGGED_EVENT_TYPES, type LoggedEventType } from '../../../domain/events/event-catalogue';
import { ListQueryDto } from '../pagination/list-query.dto';
import { IsInstant, Optional } from '../validation/decorators';

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
}
