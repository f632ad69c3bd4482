import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsInt, IsString, Max, Min } from 'class-validator';
import { PORTAL_CAPABILITIES } from '../../../domain/portal/portal-capability';
import { PORTAL_LIMITS, PORTAL_SESSION_SECONDS } from '../../../domain/portal/portal-session';
import { Optional, Required } from '../validation/decorators';

const SECONDS_MESSAGE = `must be a whole number of seconds from ${PORTAL_SESSION_SECONDS.min} to ${PORTAL_SESSION_SECONDS.max}`;

/**
 * An optional list of 1 to `max` strings, as OpenAPI shows it and as it is checked; `items` names
 * them in the messages, `counted` in the bound's. Bottom-first, as stacked.
 */
const OptionalList = (max: number, items: string, counted: string, doc: { example: string; description: string }) =>
  applyDecorators(
    IsArray({ message: `must be an array of ${items}` }),
    ArrayMaxSize(max, { message: `must list at most ${max} ${counted}` }),
    IsString({ each: true, message: `must be an array of ${items}` }),
    Optional(),
    ApiPropertyOptional({ type: 'array', items: { type: 'string', example: doc.example }, minItems: 1, maxItems: max, description: doc.description }),
  );

@ApiSchema({ name: 'CreatePortalSessionRequest' })
export class CreatePortalSessionDto {
  @ApiProperty({
    type: 'array',
    items: { type: 'string', enum: [...PORTAL_CAPABILITIES] },
    minItems: 1,
    uniqueItems: true,
    example: ['deliveries:read', 'deliveries:retry'],
    description:
      'What the viewer may do. `deliveries:read` is part of every session (alone: read-only); `deliveries:retry` redelivers and recovers, `events:test` sends test events, ' +
      '`subscriptions:manage` creates, changes and deletes subscriptions, `secrets:rotate` rotates signing secrets. The API key must hold every scope they stand for: deliveries:read needs webhooks:read and events:read; retry and manage need webhooks:write and events:read; test and rotate need webhooks:write.',
  })
  @Required()
  @IsString({ each: true, message: 'must be an array of capability names' })
  @ArrayMinSize(1, { message: 'must name at least one capability' })
  @IsArray({ message: 'must be an array of capability names' })
  capabilities!: string[];

  @ApiProperty({ type: 'integer', minimum: PORTAL_SESSION_SECONDS.min, maximum: PORTAL_SESSION_SECONDS.max, example: 3600, description: 'Seconds the session lives, from 5 minutes to 7 days.' })
  @Required()
  @Max(PORTAL_SESSION_SECONDS.max, { message: SECONDS_MESSAGE })
  @Min(PORTAL_SESSION_SECONDS.min, { message: SECONDS_MESSAGE })
  @IsInt({ message: SECONDS_MESSAGE })
  expiresIn!: number;

  @OptionalList(PORTAL_LIMITS.origins, 'origins', 'origins', {
    example: 'https://app.example.com',
    description: 'Origins whose pages may embed the portal in an iframe (https; http only on loopback). Left out: the portal may not be embedded.',
  })
  allowedOrigins?: string[];

  @OptionalList(PORTAL_LIMITS.subscriptions, 'subscription ids', 'subscriptions', {
    example: 'whsub_01jdq8x0m2f3e4r5t6y7u8i9o0',
    description: 'Narrows the session to these subscriptions (each one of yours). Left out: every subscription of the tenant.',
  })
  subscriptionIds?: string[];
}

@ApiSchema({ name: 'ExchangePortalLinkRequest' })
export class ExchangePortalLinkDto {
  @ApiProperty({ example: 'lpl_4rT0mB9Qp2c7Ye1Kx0Wd3Zs8Hn5Uf6Lj2Ga9Vt1Rb4E', description: "The token in the portal URL's fragment (`#token=…`): it opens the session once." })
  @Required()
  @IsString({ message: 'must be the token from the portal link' })
  linkToken!: string;
}
