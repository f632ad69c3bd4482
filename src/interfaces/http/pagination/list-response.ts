import type { Type } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/**
 * A list's envelope as OpenAPI shows it, for lists of `item`: a response class extends it
 * (`class BrandListResponse extends ListResponseOf(BrandResponse) {}`), so that every list says
 * the same of its cursor. Swagger reads the properties through the class's prototype chain.
 */
export function ListResponseOf<T>(item: Type<T>) {
  abstract class ListResponse {
    @ApiProperty({ type: [item] }) items!: T[];
    @ApiProperty() hasMore!: boolean;
    @ApiPropertyOptional({ description: 'Present exactly when hasMore is true; send it as `cursor`.' }) nextCursor?: string;
  }
  return ListResponse;
}
