import type { NextFunction, Response } from 'express';
import type { Logger } from '../../../application/shared/logger.port';
import type { Metrics } from '../../../application/shared/metrics.port';
import type { ApiRequest } from '../api-request';

/** One structured line per request: id, tenant, route pattern, status and duration; no headers. */
export function accessLog(logger: Logger, metrics?: Metrics) {
  return (req: ApiRequest, res: Response, next: NextFunction): void => {
    logger.debug({ requestId: req.requestId, method: req.method, path: req.path }, 'request started');
    res.once('finish', () => {
      const durationMs = Number(process.hrtime.bigint() - req.startedAt) / 1e6;
      const line = {
        requestId: req.requestId,
        traceId: req.traceId,
        spanId: req.spanId,
        tenantId: req.principal?.tenantId,
        method: req.method,
        route: (req.route as { path?: string } | undefined)?.path ?? 'unmatched',
        status: res.statusCode,
        durationMs: Math.round(durationMs * 100) / 100,
      };
      metrics?.observeRequest(line.method, line.route, line.status, durationMs / 1000);
      if (res.statusCode >= 500) logger.error(line, 'request');
      else logger.info(line, 'request');
    });
    next();
  };
}
