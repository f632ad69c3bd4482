import { isIP } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import { Agent, buildConnector, request } from 'undici';
import { TraceCarrier } from '../../application/webhook/delivery/delivery-job';
import { AttemptResult } from '../../application/webhook/attempt/delivery-claim';
import { AttemptLabel, WebhookSender } from '../../application/webhook/attempt/webhook-sender.port';
import { attemptSpan } from '../tracing/attempt-span';
import { parseRetryAfter } from '../../domain/webhook/retry-texts';
import { connectionFailedMessage, TARGET_UNREACHABLE, timeoutMessage } from '../../domain/webhook/attempt-error';
import { forbiddenClass } from './address-policy';
import { ForbiddenTargetError, LookupSettings, resolvingLookup } from './guarded-lookup';

export { TARGET_UNREACHABLE };

/** What is read of a receiver's answer, at most, and for how long, after its status came. */
const MAX_RESPONSE_BYTES = 64 * 1024;
const RESPONSE_BODY_MS = 1000;
/** How much of an answer that is not a 2xx the attempt's log keeps, as text (docs/webhooks.md, decisions.md 187). */
export const RESPONSE_EXCERPT_BYTES = 2048;

/**
 * POSTs deliveries with undici (keep-alive; half the CPU of global fetch here). A 2xx status
 * within the timeout is success, however slowly the receiver then sends its body: the body is
 * read for at most RESPONSE_BODY_MS and MAX_RESPONSE_BYTES, then dropped. Redirects are not
 * followed. Host names are resolved off the thread pool (`resolvingLookup`); unless private
 * targets are allowed, every connection goes through the address policy: literal IPs are checked
 * before connecting, host names on their resolved addresses.
 */
export class HttpWebhookSender extends WebhookSender {
  private readonly agent: Agent;

  constructor(private readonly options: { timeoutMs: number; allowPrivateTargets: boolean; connections: number; dns?: Omit<LookupSettings, 'guard'> }) {
    super();
    const dns = options.dns ?? { timeoutMs: 2000, tries: 2 };
    // `lookup` reaches net/tls.connect through undici's connector options.
    const base = buildConnector({
      timeout: options.timeoutMs,
      lookup: resolvingLookup({ ...dns, guard: !options.allowPrivateTargets }),
    } as buildConnector.BuildOptions);
    const connect: buildConnector.connector = (opts, callback) => {
      const host = opts.hostname.replace(/^\[|\]$/g, '');
      const cls = options.allowPrivateTargets || isIP(host) === 0 ? null : forbiddenClass(host);
      if (cls) return callback(new ForbiddenTargetError(host, cls), null);
      base(opts, callback);
    };
    this.agent = new Agent({ connect, connections: options.connections, keepAliveTimeout: 10_000, pipelining: 1 });
  }

  /** The attempt runs in its span (attempt-span.ts), which the receiver gets as `traceparent`. */
  send(input: { url: string; body: string; headers: Record<string, string>; trace?: TraceCarrier | null; attempt?: AttemptLabel }): Promise<AttemptResult> {
    return attemptSpan(input, (headers) => this.post({ ...input, headers }));
  }

  private async post(input: { url: string; body: string; headers: Record<string, string> }): Promise<AttemptResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    // The timeout covers connecting, sending and the status line with headers; not the body after.
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(new DOMException('timed out', 'TimeoutError')), this.options.timeoutMs);
    try {
      const response = await request(input.url, {
        method: 'POST',
        body: input.body,
        headers: input.headers,
        dispatcher: this.agent,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: RESPONSE_BODY_MS,
        signal: abort.signal,
      });
      clearTimeout(timer);
      const durationMs = elapsed();
      // A success's body is dropped unread; a failure's start is kept for the person looking into it.
      const failed = response.statusCode < 200 || response.statusCode > 299;
      const responseExcerpt = failed ? await readExcerpt(response.body) : (await readBriefly(response), null);
      // A receiver that is overloaded or rate-limits us says when to come back (Standard Webhooks).
      if (response.statusCode === 429 || response.statusCode === 503) {
        const header = response.headers['retry-after'];
        const retryAfterMs = parseRetryAfter(Array.isArray(header) ? header[0] : header, new Date());
        if (retryAfterMs !== null) return { statusCode: response.statusCode, durationMs, error: null, retryAfterMs, responseExcerpt };
      }
      return { statusCode: response.statusCode, durationMs, error: null, ...(failed && { responseExcerpt }) };
    } catch (error) {
      return { statusCode: null, durationMs: elapsed(), ...describe(error, this.options.timeoutMs) };
    } finally {
      clearTimeout(timer);
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

/**
 * Reads and drops the answer's body, at most MAX_RESPONSE_BYTES for at most RESPONSE_BODY_MS;
 * never throws. A body cut short closes its connection instead of returning it to the pool.
 * undici's own `dump` does exactly this; an async iterator over the body allocated a dozen
 * objects per attempt (iterator, end-of-stream listeners, promises), a measurable share of the
 * worker's garbage in a drain (docs/performance-analysis.md). An answer whose framing says it has
 * no body (204, 304, Content-Length 0) has ended with its headers: it needs no timer (a timer's
 * signal, its abort event and its DOMException made another share of that garbage).
 */
async function readBriefly(response: { statusCode: number; headers: Record<string, string | string[] | undefined>; body: { dump(options: { limit: number; signal?: AbortSignal }): Promise<void> } }): Promise<void> {
  const empty = response.statusCode === 204 || response.statusCode === 304 || response.headers['content-length'] === '0';
  await response.body.dump({ limit: MAX_RESPONSE_BYTES, ...(!empty && { signal: AbortSignal.timeout(RESPONSE_BODY_MS) }) }).catch(() => {});
}

/**
 * The first RESPONSE_EXCERPT_BYTES of an answer's body as text, read for at most RESPONSE_BODY_MS;
 * null for an empty body. A character cut at the bound is left out (StringDecoder holds it back)
 * and NUL, which PostgreSQL's text cannot hold, is dropped. A body longer than the bound, or slower
 * than the time, is cut there: its connection closes instead of returning to the pool.
 */
async function readExcerpt(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string | null> {
  const decoder = new StringDecoder('utf8');
  let text = '';
  let size = 0;
  const timer = setTimeout(() => body.destroy(), RESPONSE_BODY_MS);
  try {
    for await (const chunk of body) {
      const part = chunk.subarray(0, RESPONSE_EXCERPT_BYTES - size);
      text += decoder.write(part);
      size += part.length;
      if (size >= RESPONSE_EXCERPT_BYTES) break;
    }
  } catch {
    // Cut short (the time bound, the receiver hung up): what came is the excerpt.
  } finally {
    clearTimeout(timer);
  }
  text = text.replaceAll('\0', '');
  return text === '' ? null : text;
}

/**
 * The tenant-visible message says as little as the sender knows for sure: a target that is
 * refused by the address policy, does not resolve, or whose name server does not answer is one
 * message, so a tenant cannot use the log to tell internal names (resolving to forbidden
 * addresses) from names that do not exist. The exact reason stays in `detail`, for the operator.
 */
const UNRESOLVED_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_NODATA', 'ENODATA', 'ESERVFAIL', 'EREFUSED', 'EDNSTIMEOUT', 'EFORBIDDENTARGET']);

/** A short reason without secrets or internals, and for the operator's log its detail where it says more. */
function describe(error: unknown, timeoutMs: number): { error: string; detail?: string } {
  const e = error as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code;
  const unresolved = [e, e.cause].find((x) => x?.code !== undefined && UNRESOLVED_CODES.has(x.code));
  if (e instanceof ForbiddenTargetError || unresolved) {
    return { error: TARGET_UNREACHABLE, detail: (unresolved ?? e).message ?? unresolved?.code ?? 'unresolved' };
  }
  if (e.name === 'TimeoutError' || e.name === 'AbortError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT' || e.code === 'UND_ERR_CONNECT_TIMEOUT') {
    return { error: timeoutMessage(timeoutMs) };
  }
  return { error: connectionFailedMessage(code) };
}
