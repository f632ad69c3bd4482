import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { PAGE_GROUP_STATUSES, type PageGroupStatus } from '../../../domain/page-group/page-group';
import { ListQueryDto } from '../pagination/list-query.dto';
import { Optional } from '../validation/decorators';

export class ListPageGroupsQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: PAGE_GROUP_STATUSES, description: 'Only groups with this status.' })
  @Optional()
  @IsIn(PAGE_GROUP_STATUSES, { message: `must be one of: ${PAGE_GROUP_STATUSES.join(', ')}` })
  status?: PageGroupStatus;
}
