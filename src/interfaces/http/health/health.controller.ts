import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { ReadinessProbe } from '../../../application/health/readiness.probe';
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
  @ApiOperation({ summary: 'Readiness: the database answers' })
  @ApiOkResponse({ schema: { example: { status: 'ok', checks: { database: 'ok' } } } })
  @ApiServiceUnavailableResponse({ description: 'SERVICE_UNAVAILABLE with Retry-After' })
  async ready(): Promise<{ status: 'ok'; checks: Record<string, 'ok'> }> {
    await this.probe.check();
    return { status: 'ok', checks: { database: 'ok' } };
  }
}
