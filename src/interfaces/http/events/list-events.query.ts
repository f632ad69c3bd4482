import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { EVENT_TYPES, type EventType } from '../../../domain/events/event-catalogue';
import { ListQueryDto } from '../pagination/list-query.dto';
import { IsInstant, Optional } from '../validation/decorators';

const DATE_TIME = 'must be an ISO 8601 date-time with its offset, e.g. 2026-11-01T00:00:00Z';

export class ListEventsQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: EVENT_TYPES, description: 'Only events of this type.' })
  @Optional()
  @IsIn(EVENT_TYPES, { message: `must be one of: ${EVENT_TYPES.join(', ')}` })
  type?: EventType;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only events created after this moment (exclusive).', example: '2026-11-01T00:00:00Z' })
  @Optional()
  @IsInstant(DATE_TIME)
  createdAfter?: string;
}
