import { Controller, Get, Header, Param, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ReadEventFeed } from '../../../application/event/read-event-feed.use-case';
import { LIST_LIMIT_DEFAULT } from '../../../application/shared/pagination';
import { ApiError } from '../errors/api-error';
import { decodeCursor, encodeCursor } from '../pagination/cursor';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { GetEvent } from '../../../application/event/get-event.use-case';
import { ListEvents } from '../../../application/event/list-events.use-case';
import { ApiErrors } from '../errors/error-responses.decorator';
import { Tagged, TaggedAnswer } from '../conditional/tagged-answer.decorator';
import { RequiresScope } from '../guards/required-scope.decorator';
import { TenantId } from '../guards/tenant.decorator';
import { toEnvelopeJson } from '../pagination/list-envelope';
import { toListRequest } from '../pagination/list-request';
import { EventListResponse, EventResponse } from './event.response';
import { ListEventsQueryDto } from './list-events.query';
import { FetchOne } from '../routes/resource-route.decorators';

/** The tenant's events for reconciliation: each exactly the envelope its deliveries carried. */
@ApiTags('Events')
@Controller('v0/events')
export class EventsController {
  constructor(
    private readonly listEvents: ListEvents,
    private readonly getEvent: GetEvent,
    private readonly readFeed: ReadEventFeed,
  ) {}

  @Get()
  @RequiresScope('events:read')
  @ApiOperation({
    summary: 'List events',
    description:
      'Newest first, kept WEBHOOK_RETENTION_DAYS (30 by default) after they were relayed. Each item is the envelope its webhook deliveries carried, byte for byte. ' +
      'With `order=asc`, the feed for a polling consumer: follow `nextCursor` from the start and no event is ever skipped, even one whose transaction committed late; ' +
      '`wait` makes it a long poll (docs/webhooks.md, Polling instead of webhooks). `webhook.test` events are not in the feed.',
  })
  @ApiOkResponse({ type: EventListResponse })
  @ApiErrors(400)
  @Header('Content-Type', 'application/json; charset=utf-8')
  async list(@TenantId() tenantId: string, @Query() query: ListEventsQueryDto, @Res({ passthrough: true }) res: Response): Promise<string> {
    if (query.order === 'asc') return this.feed(tenantId, query, res);
    if (query.wait !== undefined) throw ApiError.validation('wait', 'is for the feed only: add order=asc');
    // The cursor is bound to the filters: a cursor of one filtered list is refused by the others.
    const list = `events:${query.type ?? '*'}:${query.createdAfter ?? '*'}`;
    const request = toListRequest(list, 'evt', query);
    const page = await this.listEvents.execute({ tenantId, type: query.type, createdAfter: query.createdAfter === undefined ? undefined : new Date(query.createdAfter), ...request });
    return toEnvelopeJson(list, page);
  }

  /**
   * The feed: the cursor is a position (bound to the filters, as every cursor), and is always
   * answered, so that a consumer resumes where it stopped even after an empty page. A client that
   * goes away while parked ends its wait (the response's close).
   */
  private async feed(tenantId: string, query: ListEventsQueryDto, res: Response): Promise<string> {
    const list = `feed:${query.type ?? '*'}:${query.createdAfter ?? '*'}`;
    const after = query.cursor === undefined ? 0 : Number(decodeCursor(list, query.cursor, 'position'));
    const gone = new AbortController();
    res.once('close', () => gone.abort());
    const slice = await this.readFeed.execute({
      tenantId,
      type: query.type,
      createdAfter: query.createdAfter === undefined ? undefined : new Date(query.createdAfter),
      after,
      limit: query.limit === undefined ? LIST_LIMIT_DEFAULT : Number(query.limit),
      waitMs: Number(query.wait ?? 0) * 1000,
      signal: gone.signal,
    });
    const items = slice.items.map((item) => item.text).join(',');
    return `{"items":[${items}],"hasMore":${slice.hasMore},"nextCursor":${JSON.stringify(encodeCursor(list, String(slice.position)))}}`;
  }

  @FetchOne(':event_id', 'events:read', { summary: 'Fetch an event', description: 'The envelope its webhook deliveries carried, byte for byte.' }, EventResponse)
  async get(@TenantId() tenantId: string, @Param('event_id') eventId: string, @Tagged() answer: TaggedAnswer): Promise<string | undefined> {
    return answer((await this.getEvent.execute({ tenantId, eventId })).text);
  }
}
