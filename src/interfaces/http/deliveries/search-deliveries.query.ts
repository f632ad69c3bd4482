import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, ValidateBy } from 'class-validator';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../../../application/webhook/deliveries/webhook-delivery.view';
import { LOGGED_EVENT_TYPES, type LoggedEventType } from '../../../domain/events/event-catalogue';
import { ID_PREFIXES, type IdPrefix, isTypeId } from '../../../domain/shared/type-id';
import { ListQueryDto } from '../pagination/list-query.dto';
import { IsInstant, Optional } from '../validation/decorators';

const DATE_TIME = 'must be an ISO 8601 date-time with its offset, e.g. 2026-11-01T00:00:00Z';

/** An id of one kind: a filter naming another kind, or nothing, is the caller's mistake (400), not an empty list. */
const IsIdOf = (prefix: IdPrefix) =>
  ValidateBy({ name: 'isIdOf', validator: { validate: (value: unknown) => isTypeId(value, prefix), defaultMessage: () => `must be an id of the form ${prefix}_…` } });

/** An optional filter by an id of one kind (one value; a repeated parameter is a 400). Bottom-first, as stacked. */
const IdFilter = (prefix: IdPrefix, description: string) =>
  applyDecorators(
    IsString({ message: 'must be a single string' }),
    IsIdOf(prefix),
    Optional(),
    ApiPropertyOptional({ example: `${prefix}_01jdq8x0m2f3e4r5t6y7u8i9o0`, description }),
  );

export class SearchDeliveriesQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: DELIVERY_STATUSES, description: 'Only deliveries in this status. `pending` includes those retrying; `waiting`: for their page\'s turn.' })
  @Optional()
  @IsIn(DELIVERY_STATUSES, { message: `must be one of: ${DELIVERY_STATUSES.join(', ')}` })
  status?: DeliveryStatus;

  @ApiPropertyOptional({ enum: LOGGED_EVENT_TYPES, description: 'Only deliveries of events of this type.' })
  @Optional()
  @IsIn(LOGGED_EVENT_TYPES, { message: `must be one of: ${LOGGED_EVENT_TYPES.join(', ')}` })
  eventType?: LoggedEventType;

  @IdFilter(ID_PREFIXES.webhookSubscription, 'Only deliveries to this subscription.')
  subscriptionId?: string;

  @IdFilter(ID_PREFIXES.page, "Only deliveries of this page's events.")
  pageId?: string;

  @IdFilter(ID_PREFIXES.brand, "Only deliveries of this brand's events.")
  brandId?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only deliveries made after this moment (exclusive).', example: '2026-11-01T00:00:00Z' })
  @Optional()
  @IsInstant(DATE_TIME)
  createdAfter?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only deliveries made before this moment (exclusive).', example: '2026-11-02T00:00:00Z' })
  @Optional()
  @IsInstant(DATE_TIME)
  createdBefore?: string;
}
