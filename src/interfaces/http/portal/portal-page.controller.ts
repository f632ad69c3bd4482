import { Controller, Get, Header, NotFoundException, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { PortalFraming } from '../../../application/portal/portal-framing.use-case';
import { Public } from '../guards/api-key.guard';
import { portalAsset, portalIndex } from './portal-assets';

/**
 * The portal page (docs/portal.md), served by the API from what `npm run build` made (no CDN:
 * nothing is fetched from elsewhere). Its Content-Security-Policy allows scripts, styles and
 * requests to this origin only, no inline script, and framing by the session's `allowedOrigins`
 * alone (read from the `session` in the address; none for an unknown or ended session). The
 * page itself holds no secret: the link token is in the fragment, and every request it makes is
 * to the public API with the session token.
 */
@ApiExcludeController()
@Public()
@Controller('portal')
export class PortalPageController {
  constructor(private readonly framing: PortalFraming) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  @Header('Referrer-Policy', 'no-referrer')
  async page(@Query('session') session: unknown, @Res() res: Response): Promise<void> {
    const origins = await this.framing.execute(typeof session === 'string' ? session : undefined);
    res.setHeader('Content-Security-Policy', pagePolicy(origins));
    // helmet's X-Frame-Options would forbid every framing page; frame-ancestors says which may.
    res.removeHeader('X-Frame-Options');
    res.type('html').send(portalIndex());
  }

  @Get('assets/:file')
  @Header('Cache-Control', 'no-cache')
  asset(@Req() req: Request, @Res() res: Response): void {
    // Read from the request: path parameters are ids (PathIdPipe), and a file name is not one.
    const found = portalAsset(String(req.params.file));
    if (found === null) throw new NotFoundException();
    res.type(found.type).send(found.body);
  }
}

/** The page's policy: this origin only, no inline script or style element, framed by `origins` alone. */
export function pagePolicy(origins: readonly string[]): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${origins.length > 0 ? origins.join(' ') : "'none'"}`,
  ].join('; ');
}
