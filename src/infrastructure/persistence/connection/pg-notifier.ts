import { Client } from 'pg';

/** How long a NOTIFY may take to connect or to be answered before it is given up (the relay polls anyway). */
const NOTIFY_TIMEOUT_MS = 5_000;

/**
 * Sends NOTIFYs over a connection of its own, opened at the first and kept. On the ORM's pool a
 * wake-up waited for a free connection behind the requests it was about: with 1,000 parked
 * readers of the event feed and 200 events/s, the API's ten connections were busy, wake-ups left
 * every 300–500 ms instead of after each commit, and events waited a second for the relay
 * (docs/performance-analysis.md). A connection that fails is dropped, and the next NOTIFY opens
 * another; a NOTIFY that fails is the caller's to forget.
 */
export class PgNotifier {
  private client?: Promise<Client>;

  constructor(private readonly databaseUrl: string) {}

  async notify(text: string): Promise<void> {
    const client = await (this.client ??= this.connect());
    try {
      await client.query(text);
    } catch (error) {
      this.drop(client);
      throw error;
    }
  }

  /** Ends the connection; a later NOTIFY opens a new one. */
  async close(): Promise<void> {
    const client = await this.client?.catch(() => undefined);
    this.client = undefined;
    await client?.end().catch(() => {});
  }

  private async connect(): Promise<Client> {
    const client = new Client({ connectionString: this.databaseUrl, connectionTimeoutMillis: NOTIFY_TIMEOUT_MS, query_timeout: NOTIFY_TIMEOUT_MS });
    // An idle connection that breaks (the database restarted, a cut) must not crash the process.
    client.on('error', () => this.drop(client));
    client.on('end', () => this.drop(client));
    try {
      await client.connect();
      // Kept open between wake-ups, it must not keep the process alive on its own (a test's ORM
      // closed without relayWakesSent, a CLI command): a server has its listeners for that.
      (client as unknown as { connection: { stream: { unref?: () => void } } }).connection.stream.unref?.();
      return client;
    } catch (error) {
      this.client = undefined;
      await client.end().catch(() => {});
      throw error;
    }
  }

  private drop(client: Client): void {
    const current = this.client;
    void current?.then(
      (kept) => {
        if (kept !== client || this.client !== current) return;
        this.client = undefined;
        client.end().catch(() => {});
      },
      () => {},
    );
  }
}
