import { Controller, Get, Header, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { GetEvent } from '../../../application/event/get-event.use-case';
import { ListEvents } from '../../../application/event/list-events.use-case';
import { ApiErrors } from '../errors/error-responses.decorator';
import { ConditionalRead } from '../conditional/conditional.decorators';
import { RequiresScope } from '../guards/required-scope.decorator';
import { TenantId } from '../guards/tenant.decorator';
import { toEnvelopeJson } from '../pagination/list-envelope';
import { toListRequest } from '../pagination/list-request';
import { EventListResponse, EventResponse } from './event.response';
import { ListEventsQueryDto } from './list-events.query';

/** The tenant's events for reconciliation: each exactly the envelope its deliveries carried. */
@ApiTags('Events')
@Controller('v0/events')
export class EventsController {
  constructor(
    private readonly listEvents: ListEvents,
    private readonly getEvent: GetEvent,
  ) {}

  @Get()
  @RequiresScope('events:read')
  @ApiOperation({
    summary: 'List events',
    description: 'Newest first, kept WEBHOOK_RETENTION_DAYS (30 by default) after they were relayed. Each item is the envelope its webhook deliveries carried, byte for byte.',
  })
  @ApiOkResponse({ type: EventListResponse })
  @ApiErrors(400)
  @Header('Content-Type', 'application/json; charset=utf-8')
  async list(@TenantId() tenantId: string, @Query() query: ListEventsQueryDto): Promise<string> {
    // The cursor is bound to the filters: a cursor of one filtered list is refused by the others.
    const list = `events:${query.type ?? '*'}:${query.createdAfter ?? '*'}`;
    const request = toListRequest(list, 'evt', query);
    const page = await this.listEvents.execute({ tenantId, type: query.type, createdAfter: query.createdAfter === undefined ? undefined : new Date(query.createdAfter), ...request });
    return toEnvelopeJson(list, page);
  }

  @Get(':event_id')
  @RequiresScope('events:read')
  @ConditionalRead()
  @ApiOperation({ summary: 'Fetch an event', description: 'The envelope its webhook deliveries carried, byte for byte.' })
  @ApiOkResponse({ type: EventResponse })
  @ApiErrors(404)
  @Header('Content-Type', 'application/json; charset=utf-8')
  async get(@TenantId() tenantId: string, @Param('event_id') eventId: string): Promise<string> {
    return (await this.getEvent.execute({ tenantId, eventId })).text;
  }
}
