import type { NextFunction, Request, Response } from 'express';
import { forwardedForWarning } from '../../../../../src/interfaces/http/middleware/forwarded-for-warning.middleware';

describe('the X-Forwarded-For warning while TRUST_PROXY is off', () => {
  it('is logged at most once a minute, and only for requests that carry the header', () => {
    const warnings: string[] = [];
    const logger = { warn: (_f: object | string, m?: string) => void warnings.push(m ?? ''), error: () => {}, info: () => {}, debug: () => {}, trace: () => {} };
    let now = 0;
    const middleware = forwardedForWarning(logger, () => now);
    let passed = 0;
    const send = (headers: Record<string, string>) =>
      middleware({ headers, socket: { remoteAddress: '127.0.0.1' } } as unknown as Request, {} as Response, (() => passed++) as NextFunction);

    send({});
    expect(warnings).toHaveLength(0);
    send({ 'x-forwarded-for': '198.51.100.1' });
    send({ 'x-forwarded-for': '198.51.100.2' });
    now = 59_999;
    send({ 'x-forwarded-for': '198.51.100.3' });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/TRUST_PROXY is off/);
    now = 60_000;
    send({ 'x-forwarded-for': '198.51.100.4' });
    expect(warnings).toHaveLength(2);
    expect(passed).toBe(5);
  });
});
