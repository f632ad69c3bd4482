import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class ErrorResponse {
  @ApiProperty({ example: 'VALIDATION_ERROR' }) code!: string;
  @ApiProperty({ example: 'themeLight.borderColor: must be a CSS hex colour (#rgb, #rgba, #rrggbb or #rrggbbaa)' }) message!: string;
  @ApiProperty({ example: 'req_01jdq8y3zq4w5e6r7t8y9u0i1o' }) requestId!: string;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    example: { field: 'themeLight.borderColor', reason: 'must be a CSS hex colour (#rgb, #rgba, #rrggbb or #rrggbbaa)' },
  })
  details?: Record<string, unknown>;
}
