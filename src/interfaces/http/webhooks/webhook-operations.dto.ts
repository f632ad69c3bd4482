import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsInt, IsString } from 'class-validator';
import { RECOVER_MAX_DAYS } from '../../../application/webhook/subscriptions/recover-deliveries.use-case';
import { MAX_SECRET_OVERLAP_SECONDS, DEFAULT_SECRET_OVERLAP_SECONDS } from '../../../domain/webhook/signing-secrets';
import { IsInstant, Optional, Required } from '../validation/decorators';

@ApiSchema({ name: 'RecoverDeliveriesRequest' })
export class RecoverDeliveriesDto {
  @ApiProperty({ format: 'date-time', example: '2026-11-24T00:00:00Z', description: `Deliveries created at or after this moment; at most ${RECOVER_MAX_DAYS} days ago.` })
  @Required()
  @IsInstant('must be an ISO 8601 date-time with its offset, e.g. 2026-11-24T00:00:00Z')
  @IsString({ message: 'must be a string' })
  since!: string;
}

@ApiSchema({ name: 'RotateSigningSecretRequest' })
export class RotateSigningSecretDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: MAX_SECRET_OVERLAP_SECONDS,
    default: DEFAULT_SECRET_OVERLAP_SECONDS,
    description: 'How long the old secret keeps signing deliveries beside the new one; 0 ends it now.',
  })
  @Optional()
  @IsInt({ message: `must be an integer from 0 to ${MAX_SECRET_OVERLAP_SECONDS}` })
  expiresInSeconds?: number;
}
