import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsArray, IsBoolean, IsString } from 'class-validator';
import { EVENT_TYPES } from '../../../domain/events/event-catalogue';
import { MAX_URL_LENGTH } from '../../../domain/shared/rules';
import { IsHttpUrl, Optional, Required } from '../validation/decorators';

// Each `events` entry is checked by the model, which names it by index (`events[1]`): unknown
// kinds and duplicates alike.
const EVENTS_DOC = {
  type: 'array' as const,
  items: { type: 'string' as const, enum: [...EVENT_TYPES] },
  minItems: 1,
  uniqueItems: true,
  example: ['page.version.created'],
};

@ApiSchema({ name: 'CreateWebhookSubscriptionRequest' })
export class CreateWebhookSubscriptionDto {
  @ApiProperty({ format: 'uri', maxLength: MAX_URL_LENGTH, example: 'https://hooks.example.com/landing' })
  @Required()
  @IsHttpUrl()
  @IsString({ message: 'must be a string' })
  url!: string;

  @ApiProperty({ ...EVENTS_DOC, description: 'Event kinds to receive: a non-empty list without duplicates.' })
  @Required()
  @IsArray({ message: 'must be an array of event kinds' })
  events!: string[];

  @ApiPropertyOptional({ default: true })
  @Optional()
  @IsBoolean({ message: 'must be a boolean' })
  active?: boolean;
}

@ApiSchema({ name: 'UpdateWebhookSubscriptionRequest' })
export class UpdateWebhookSubscriptionDto {
  @ApiPropertyOptional({ format: 'uri', maxLength: MAX_URL_LENGTH })
  @Optional()
  @IsHttpUrl()
  @IsString({ message: 'must be a string' })
  url?: string;

  @ApiPropertyOptional({ ...EVENTS_DOC })
  @Optional()
  @IsArray({ message: 'must be an array of event kinds' })
  events?: string[];

  @ApiPropertyOptional({ description: 'false stops deliveries; turning it back on does not replay what was missed.' })
  @Optional()
  @IsBoolean({ message: 'must be a boolean' })
  active?: boolean;
}
