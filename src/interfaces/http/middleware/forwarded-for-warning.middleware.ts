import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '../../../application/shared/logger.port';

const EVERY_MS = 60_000;

/**
 * With TRUST_PROXY off, a request that carries X-Forwarded-For most likely came through a proxy
 * the API was not told about: every client then shares the proxy's address, and so its budget of
 * failed authentications. Said at most once a minute, so a flood cannot flood the log.
 */
export function forwardedForWarning(logger: Logger, now: () => number = Date.now) {
  let lastWarnedAt = -Infinity;
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (req.headers['x-forwarded-for'] !== undefined && now() - lastWarnedAt >= EVERY_MS) {
      lastWarnedAt = now();
      logger.warn(
        { peer: req.socket.remoteAddress },
        "requests carry X-Forwarded-For but TRUST_PROXY is off: clients are counted by the proxy's address; set TRUST_PROXY to the proxies' hop count or addresses",
      );
    }
    next();
  };
}
