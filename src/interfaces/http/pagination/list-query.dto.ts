import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Matches, MaxLength } from 'class-validator';
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, LIST_LIMIT_MIN } from '../../../application/shared/pagination';
import { Optional } from '../validation/decorators';

const LIMIT_REASON = `must be an integer from ${LIST_LIMIT_MIN} to ${LIST_LIMIT_MAX}`;

/** `cursor` and `limit` of every list (decisions.md, Lists); query values arrive as strings. */
export class ListQueryDto {
  @ApiPropertyOptional({ description: 'The `nextCursor` of the previous page.', type: String })
  @Optional()
  @MaxLength(512, { message: 'is not a valid cursor for this list' })
  @IsString({ message: 'must be a single string' })
  cursor?: string;

  @ApiPropertyOptional({ description: 'Page size.', type: 'integer', minimum: LIST_LIMIT_MIN, maximum: LIST_LIMIT_MAX, default: LIST_LIMIT_DEFAULT })
  @Optional()
  @IsString({ message: LIMIT_REASON })
  @Matches(/^(100|[1-9][0-9]?)$/, { message: LIMIT_REASON })
  limit?: string;
}
