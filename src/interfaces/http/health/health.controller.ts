import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { ReadinessProbe } from '../../../application/health/readiness-probe.port';
import { Public } from '../guards/api-key.guard';

@ApiTags('Health')
@Public()
@Controller('health')
export class HealthController {
  constructor(@Inject(ReadinessProbe) private readonly probe: ReadinessProbe) {}

  @Get('live')
  @ApiOperation({ summary: 'Liveness: the process serves HTTP' })
  @ApiOkResponse({ schema: { example: { status: 'ok' } } })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({
    summary: 'Readiness: the database answers',
    description: 'Redis, when used, is reported but does not make the API unready: rate limits fail open without it.',
  })
  @ApiOkResponse({ schema: { example: { status: 'ok', checks: { database: 'ok', redis: 'ok' } } } })
  @ApiServiceUnavailableResponse({ description: 'SERVICE_UNAVAILABLE with Retry-After' })
  async ready(): Promise<{ status: 'ok'; checks: Record<string, 'ok' | 'unavailable'> }> {
    return { status: 'ok', checks: await this.probe.check() };
  }
}
