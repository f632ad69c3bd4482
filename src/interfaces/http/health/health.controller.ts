import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { Readiness, ReadinessProbe } from '../../../application/health/readiness-probe.port';
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
  @ApiOkResponse({
    description: '`historyDaysAhead`: whole days of event history made ahead of the clock (every API, CLI and worker process makes 14); an event written past them has no day to go to.',
    schema: { example: { status: 'ok', checks: { database: 'ok', redis: 'ok' }, historyDaysAhead: 14 } },
  })
  @ApiServiceUnavailableResponse({ description: 'SERVICE_UNAVAILABLE with Retry-After' })
  async ready(): Promise<{ status: 'ok' } & Readiness> {
    const { checks, historyDaysAhead } = await this.probe.check();
    return { status: 'ok', checks, historyDaysAhead };
  }
}
