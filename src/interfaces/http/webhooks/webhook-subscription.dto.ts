import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsArray, IsBoolean, IsIn, IsInt, IsObject, IsString, Max, Min } from 'class-validator';
import { MAX_FILTER_IDS } from '../../../domain/webhook/delivery-filter';
import { DELIVERY_ORDERINGS, DeliveryOrdering } from '../../../domain/webhook/subscription-kinds';
import { EVENT_TYPES } from '../../../domain/events/event-catalogue';
import { MAX_URL_LENGTH } from '../../../domain/shared/rules';
import { MAX_RATE_LIMIT_PER_SECOND } from '../../../domain/webhook/subscription-rules';
import { IsHttpUrl, Optional, OptionalNullable, Required } from '../validation/decorators';

const RATE_MESSAGE = `must be an integer from 1 to ${MAX_RATE_LIMIT_PER_SECOND}, or null for no limit`;
const RATE_DOC = {
  type: 'integer' as const,
  minimum: 1,
  maximum: MAX_RATE_LIMIT_PER_SECOND,
  nullable: true,
  example: 50,
  description:
    'Attempts per second this receiver takes at most, across every worker: deliveries beyond it wait for their turn (they are not failed). ' +
    'null (the default) for no limit. An extension of the spec (docs/webhooks.md, Receivers set the pace).',
};

/** Integer in range; its type checked last (decorators run bottom-up), so a string is named as one. */
const RateLimit = () => (target: object, key: string) => {
  Max(MAX_RATE_LIMIT_PER_SECOND, { message: RATE_MESSAGE })(target, key);
  Min(1, { message: RATE_MESSAGE })(target, key);
  IsInt({ message: RATE_MESSAGE })(target, key);
  OptionalNullable()(target, key);
};

// Each `events` entry is checked by the model, which names it by index (`events[1]`): unknown
// kinds and duplicates alike.
const EVENTS_DOC = {
  type: 'array' as const,
  items: { type: 'string' as const, enum: [...EVENT_TYPES] },
  minItems: 1,
  uniqueItems: true,
  example: ['page.version.created'],
};

const ids = (kind: string, example: string) =>
  ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', example },
    minItems: 1,
    maxItems: MAX_FILTER_IDS,
    uniqueItems: true,
    description: `Only events about these ${kind}s, of the events about a ${kind}; events about no ${kind} are not narrowed by this list.`,
  });

/** The filter's shape for OpenAPI; its content is checked by the model, which names each field (`filter.pageGroupIds[3]`). */
@ApiSchema({ name: 'WebhookSubscriptionFilter' })
export class WebhookSubscriptionFilterDto {
  @ids('page group', 'page_01jdq8x0m2f3e4r5t6y7u8i9o0') pageGroupIds?: string[];
  @ids('brand', 'brand_01jdq8x0m2f3e4r5t6y7u8i9o0') brandIds?: string[];
}

const FILTER_DOC = {
  type: WebhookSubscriptionFilterDto,
  nullable: true,
  description:
    'Narrows the events of its kinds by what they are about: `page.version.created` by its page group, brand events by their brand. ' +
    'Each id must be one of your page groups or brands (404 otherwise). null (the default) for every event of its kinds. An extension of the spec (docs/webhooks.md, Filters).',
};

/** An object, its content checked by the model (delivery-filter.ts); null or absent for none. */
const Filter = () => (target: object, key: string) => {
  IsObject({ message: 'must be an object with pageGroupIds and/or brandIds, or null' })(target, key);
  OptionalNullable()(target, key);
};

const ORDERING_DOC = {
  enum: [...DELIVERY_ORDERINGS],
  example: 'page',
  description:
    '`page`: the deliveries of one page go one at a time, in the order their events were made; a page\'s next delivery waits until the one before it ' +
    'succeeded, gave up or was cancelled, and other pages are not held up. `none` (the default): every delivery goes as soon as it may. ' +
    'Manual deliveries (redeliver, recover, test) and events about no page are never ordered. An extension of the spec (docs/webhooks.md, Ordered delivery).',
};

/** One of the orderings; null is refused (leave it out to keep it). */
const Ordering = () => (target: object, key: string) => {
  IsIn(DELIVERY_ORDERINGS, { message: `must be one of: ${DELIVERY_ORDERINGS.join(', ')}` })(target, key);
  Optional()(target, key);
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

  @ApiPropertyOptional(RATE_DOC)
  @RateLimit()
  rateLimitPerSecond?: number | null;

  @ApiPropertyOptional(FILTER_DOC)
  @Filter()
  filter?: WebhookSubscriptionFilterDto | null;

  @ApiPropertyOptional(ORDERING_DOC)
  @Ordering()
  ordering?: DeliveryOrdering;
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

  @ApiPropertyOptional({ ...RATE_DOC, description: `${RATE_DOC.description} null removes it.` })
  @RateLimit()
  rateLimitPerSecond?: number | null;

  @ApiPropertyOptional({ ...FILTER_DOC, description: `${FILTER_DOC.description} null removes it.` })
  @Filter()
  filter?: WebhookSubscriptionFilterDto | null;

  @ApiPropertyOptional({ ...ORDERING_DOC, description: `${ORDERING_DOC.description} A change applies to deliveries made after it.` })
  @Ordering()
  ordering?: DeliveryOrdering;
}
