import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ExchangePortalLink } from '../../../application/portal/portal-access.use-case';
import { GetPortalSession, ListPortalSessions, RevokePortalSession } from '../../../application/portal/manage-portal-sessions.use-case';
import { OpenPortalSession } from '../../../application/portal/open-portal-session.use-case';
import { PortalSessionView } from '../../../application/portal/portal-session.view';
import type { ApiKeyScopes } from '../../../domain/api-key/api-key-scope';
import { NotFoundError } from '../../../domain/shared/domain-error';
import type { ApiRequest } from '../api-request';
import { ApiErrors } from '../errors/error-responses.decorator';
import { Public } from '../guards/api-key.guard';
import { rateLimited } from '../guards/rate-limit-answers';
import { callerOf } from '../guards/client-address';
import { RateLimiter } from '../../../application/rate-limit/rate-limiter.port';
import { RateLimitSettings } from '../../../application/rate-limit/rate-limit-settings.port';
import { PortalRefusedError } from '../../../domain/portal/portal-session';
import { PortalCapable } from '../guards/portal-capability.decorator';
import { RequiresScope } from '../guards/required-scope.decorator';
import { Grant, TenantId } from '../guards/tenant.decorator';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { ListEnvelope, toEnvelope } from '../pagination/list-envelope';
import { ListQueryDto } from '../pagination/list-query.dto';
import { toListRequest } from '../pagination/list-request';
import { CreatePortalSessionDto, ExchangePortalLinkDto } from './portal-session.dto';
import { CreatedPortalSessionResponse, ExchangedPortalLinkResponse, PortalSessionListResponse, PortalSessionResponse } from './portal-session.response';
import { portalUrl } from './portal-url';

const PORTAL = 'The webhook portal: a page a tenant\'s people open to see and operate its webhooks. An extension of the spec.';

@ApiTags('Portal sessions')
@Controller('v0/portal_sessions')
export class PortalSessionsController {
  constructor(
    private readonly openSession: OpenPortalSession,
    private readonly listSessions: ListPortalSessions,
    private readonly getSession: GetPortalSession,
    private readonly revokeSession: RevokePortalSession,
    private readonly exchangeLink: ExchangePortalLink,
    private readonly limiter: RateLimiter,
    private readonly limits: RateLimitSettings,
  ) {}

  @Post()
  @RequiresScope('webhooks:read')
  @HttpCode(201)
  @Idempotent()
  @ApiOperation({ summary: 'Open a portal session', description: `Answers the portal URL for one person, with a one-use link in its fragment. The key must hold every scope the capabilities stand for (403 names the missing ones). ${PORTAL}` })
  @ApiBody({ type: CreatePortalSessionDto })
  @ApiCreatedResponse({ type: CreatedPortalSessionResponse })
  @ApiErrors(400, 413, 415)
  async create(@TenantId() tenantId: string, @Grant() grant: ApiKeyScopes, @Body() body: CreatePortalSessionDto, @Req() req: ApiRequest): Promise<PortalSessionView & { url: string }> {
    const opened = await this.openSession.execute({
      tenantId, apiKeyId: req.principal!.apiKeyId, grant, capabilities: body.capabilities, expiresInSeconds: body.expiresIn,
      allowedOrigins: body.allowedOrigins, subscriptionIds: body.subscriptionIds,
    });
    return { ...opened.session, url: portalUrl(req, opened.session.id, opened.linkToken) };
  }

  @Get()
  @RequiresScope('webhooks:read')
  @ApiOperation({ summary: 'List portal sessions', description: `Newest first, live or not. ${PORTAL}` })
  @ApiOkResponse({ type: PortalSessionListResponse })
  @ApiErrors(400)
  async list(@TenantId() tenantId: string, @Query() query: ListQueryDto): Promise<ListEnvelope<PortalSessionView>> {
    return toEnvelope('portal_sessions', await this.listSessions.execute({ tenantId, page: toListRequest('portal_sessions', 'portal', query) }));
  }

  /** The session of the portal page that asks: what it may do, until when. */
  @Get('current')
  @RequiresScope('webhooks:read')
  @PortalCapable('deliveries:read')
  @ApiOperation({ summary: "The calling portal session", description: `For the portal page: the session its token belongs to. 404 for an API key. ${PORTAL}` })
  @ApiOkResponse({ type: PortalSessionResponse })
  @ApiErrors(404)
  current(@TenantId() tenantId: string, @Req() req: ApiRequest): Promise<PortalSessionView> {
    if (!req.portal) throw new NotFoundError('portal session', 'current');
    return this.getSession.execute({ tenantId, id: req.portal.portalSessionId });
  }

  @Get(':portal_session_id')
  @RequiresScope('webhooks:read')
  @ApiOperation({ summary: 'Fetch a portal session', description: PORTAL })
  @ApiOkResponse({ type: PortalSessionResponse })
  @ApiErrors(404)
  get(@TenantId() tenantId: string, @Param('portal_session_id') id: string): Promise<PortalSessionView> {
    return this.getSession.execute({ tenantId, id });
  }

  @Delete(':portal_session_id')
  @RequiresScope('webhooks:read')
  @ApiOperation({ summary: 'Revoke a portal session', description: `Its page stops at its next request. Revoking a revoked session changes nothing. ${PORTAL}` })
  @ApiOkResponse({ type: PortalSessionResponse })
  @ApiErrors(404)
  revoke(@TenantId() tenantId: string, @Param('portal_session_id') id: string): Promise<PortalSessionView> {
    return this.revokeSession.execute({ tenantId, id });
  }

  @Post('exchange')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: "Exchange a portal link's token for a session token",
    description: `Called by the portal page, once per link; no API key (the link's token is the credential). 401 with the reason (unknown, used, expired, revoked) otherwise. ${PORTAL}`,
    security: [],
  })
  @ApiBody({ type: ExchangePortalLinkDto })
  @ApiOkResponse({ type: ExchangedPortalLinkResponse })
  @ApiErrors(400, 413, 415)
  async exchange(@Body() body: ExchangePortalLinkDto, @Req() req: ApiRequest): Promise<{ sessionToken: string; session: PortalSessionView }> {
    // As for API keys (decisions.md 182): a refused link counts against its address's budget of
    // failed authentications, and an address over it is refused before any lookup.
    const caller = callerOf(req, this.limits);
    const windowMs = this.limits.windowSeconds * 1000;
    if (((await this.limiter.peek(caller.failuresKey, windowMs)) ?? 0) > caller.failuresMax) {
      throw rateLimited({ allowed: false, limit: caller.failuresMax, remaining: 0, resetMs: windowMs });
    }
    try {
      return await this.exchangeLink.execute({ linkToken: body.linkToken });
    } catch (error) {
      if (error instanceof PortalRefusedError) await this.limiter.hit(caller.failuresKey, caller.failuresMax, windowMs);
      throw error;
    }
  }
}
