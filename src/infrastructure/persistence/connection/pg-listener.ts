import { Client } from 'pg';
import type { Logger } from '../../../application/shared/logger.port';

/** How a listener finds out that its connection is gone when nothing tells it. */
export interface ListenerHealth {
  /** How often the connection is asked a `SELECT 1` while it listens. */
  heartbeatMs: number;
  /** How long a connect or a heartbeat may take before the connection counts as lost. */
  timeoutMs: number;
}

/**
 * A connection cut by the network sends nothing: no error, no end, and no notification ever again.
 * TCP keepalive finds it only after the system's probes (minutes with Linux's defaults), so the
 * listener asks the connection itself, and gives up on one that does not answer in time.
 */
const DEFAULT_HEALTH: ListenerHealth = { heartbeatMs: 10_000, timeoutMs: 5_000 };

/**
 * LISTEN on one channel over a dedicated connection (a pooled one would lose it). If the
 * connection drops, or stops answering its heartbeat, it reconnects after a second; `live` says
 * whether notifications can come now, so that a caller can poll meanwhile, and `onLive` is told
 * each change: notifications may have been missed while it was away.
 */
export class PgListener {
  private client?: Client;
  private closed = false;
  private retry?: NodeJS.Timeout;
  private heartbeat?: NodeJS.Timeout;
  private starting?: Promise<void>;
  live = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly channel: string,
    private readonly logger: Logger,
    private readonly onNotification: (payload: string) => void,
    private readonly onLive: (live: boolean) => void = () => {},
    private readonly health: ListenerHealth = DEFAULT_HEALTH,
  ) {}

  /** Connects and listens once (later calls wait for the first); resolves whether it listens. */
  async start(): Promise<boolean> {
    this.starting ??= this.connect();
    await this.starting;
    return this.live;
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new Client({ connectionString: this.databaseUrl, keepAlive: true, connectionTimeoutMillis: this.health.timeoutMs });
    this.client = client;
    const reconnect = () => {
      if (this.closed || this.client !== client) return;
      this.client = undefined;
      clearInterval(this.heartbeat);
      this.setLive(false);
      // A connection that stopped answering would never finish a polite end: its socket goes.
      (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
      client.end().catch(() => {});
      this.retry = setTimeout(() => void this.connect().catch(() => {}), 1000);
    };
    client.on('notification', (message) => this.onNotification(message.payload ?? ''));
    client.on('error', (error) => {
      this.logger.warn({ err: { message: error.message }, channel: this.channel }, 'listener lost its connection; polling until it is back');
      reconnect();
    });
    client.on('end', reconnect);
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
      if (this.client !== client) return;
      this.heartbeat = setInterval(() => void this.beat(client, reconnect), this.health.heartbeatMs);
      this.heartbeat.unref();
      this.setLive(true);
    } catch (error) {
      this.logger.warn({ err: { message: (error as Error).message }, channel: this.channel }, 'listener could not connect; polling until it can');
      reconnect();
    }
  }

  private async beat(client: Client, reconnect: () => void): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), this.health.timeoutMs)));
    const answer = await Promise.race([client.query('SELECT 1').then(() => 'answered' as const, () => 'failed' as const), late]);
    clearTimeout(timer);
    if (answer === 'answered' || this.client !== client) return;
    this.logger.warn({ channel: this.channel, heartbeat: answer }, 'listener connection stopped answering; polling until it is back');
    reconnect();
  }

  private setLive(live: boolean): void {
    if (this.live === live) return;
    this.live = live;
    this.onLive(live);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.live = false;
    clearTimeout(this.retry);
    clearInterval(this.heartbeat);
    await this.client?.end().catch(() => {});
  }
}
