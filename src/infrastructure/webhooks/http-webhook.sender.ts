import { isIP } from 'node:net';
import { Agent, buildConnector, request } from 'undici';
import { AttemptResult, WebhookSender } from '../../application/webhook/delivery.ports';
import { forbiddenClass } from './address-policy';
import { ForbiddenTargetError, guardedLookup } from './guarded-lookup';

const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * POSTs deliveries with undici (keep-alive; half the CPU of global fetch here). 2xx within the
 * timeout is success; redirects are not followed; the response body is read (bounded) and
 * dropped. Unless private targets are allowed, every connection goes through the address policy:
 * literal IPs are checked before connecting, host names through `guardedLookup`.
 */
export class HttpWebhookSender extends WebhookSender {
  private readonly agent: Agent;

  constructor(private readonly options: { timeoutMs: number; allowPrivateTargets: boolean; connections: number }) {
    super();
    // `lookup` reaches net/tls.connect through undici's connector options.
    const base = buildConnector({
      timeout: options.timeoutMs,
      ...(options.allowPrivateTargets ? {} : { lookup: guardedLookup }),
    } as buildConnector.BuildOptions);
    const connect: buildConnector.connector = (opts, callback) => {
      const host = opts.hostname.replace(/^\[|\]$/g, '');
      const cls = options.allowPrivateTargets || isIP(host) === 0 ? null : forbiddenClass(host);
      if (cls) return callback(new ForbiddenTargetError(host, cls), null);
      base(opts, callback);
    };
    this.agent = new Agent({ connect, connections: options.connections, keepAliveTimeout: 10_000, pipelining: 1 });
  }

  async send(input: { url: string; body: string; headers: Record<string, string> }): Promise<AttemptResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const response = await request(input.url, {
        method: 'POST',
        body: input.body,
        headers: input.headers,
        dispatcher: this.agent,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      let read = 0;
      for await (const chunk of response.body) {
        read += (chunk as Buffer).length;
        if (read > MAX_RESPONSE_BYTES) break;
      }
      if (read > MAX_RESPONSE_BYTES) response.body.destroy();
      return { statusCode: response.statusCode, durationMs: elapsed(), error: null };
    } catch (error) {
      return { statusCode: null, durationMs: elapsed(), error: describe(error, this.options.timeoutMs) };
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

/** A short reason without secrets or internals: the code, or the policy's own message. */
function describe(error: unknown, timeoutMs: number): string {
  const e = error as { name?: string; code?: string; message?: string; cause?: unknown };
  if (e instanceof ForbiddenTargetError || (e.cause as { code?: string })?.code === 'EFORBIDDENTARGET') {
    return ((e.cause as Error) ?? e).message ?? 'forbidden target address';
  }
  if (e.name === 'TimeoutError' || e.name === 'AbortError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT' || e.code === 'UND_ERR_CONNECT_TIMEOUT') {
    return `no answer within ${timeoutMs} ms`;
  }
  const code = e.code ?? (e.cause as { code?: string })?.code;
  return code ? `connection failed (${code})` : 'connection failed';
}
