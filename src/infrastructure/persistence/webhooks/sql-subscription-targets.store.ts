import { MikroORM } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { SubscriptionTarget, SubscriptionTargets } from '../../../application/webhook/delivery/subscription-targets.port';
import { DecryptedSecrets, StoredPreviousSecret } from '../../crypto/decrypted-secrets';
import { sqlQuery } from '../connection/sql-statement';

/**
 * A subscription's target version: a digest of exactly what a kept target holds (URL and
 * secrets), written once for the relay's read and the worker's. A content digest rather than a
 * timestamp or the row's xmin: nothing else written to the row (health, last success) moves it,
 * and no writer has to remember to.
 */
export const TARGET_VERSION_SQL = `md5(url || signing_secret_encrypted || previous_signing_secrets::text)`;

/** Subscriptions kept at most; past it the map starts again (a worker serves a few thousand). */
const KEPT = 10_000;

/** Subscriptions' targets read from PostgreSQL and kept in the worker by version. */
@Injectable()
export class SqlSubscriptionTargets extends SubscriptionTargets {
  private readonly kept = new Map<string, { version: string; target: SubscriptionTarget }>();
  /** Reads under way, shared: a drain's first attempts to one subscription read it once. */
  private readonly reading = new Map<string, Promise<{ version: string; target: SubscriptionTarget } | null>>();

  constructor(
    private readonly orm: MikroORM,
    private readonly secrets: DecryptedSecrets,
  ) {
    super();
  }

  async target(subscriptionId: string, version: string): Promise<SubscriptionTarget | null> {
    let found = this.kept.get(subscriptionId);
    if (found?.version !== version) found = (await this.read(subscriptionId)) ?? undefined;
    return found?.version === version ? found.target : null;
  }

  private read(subscriptionId: string): Promise<{ version: string; target: SubscriptionTarget } | null> {
    let reading = this.reading.get(subscriptionId);
    if (!reading) {
      reading = this.load(subscriptionId).finally(() => this.reading.delete(subscriptionId));
      this.reading.set(subscriptionId, reading);
    }
    return reading;
  }

  private async load(subscriptionId: string): Promise<{ version: string; target: SubscriptionTarget } | null> {
    const { rows } = await sqlQuery<{ version: string; url: string; secret: string; previous: StoredPreviousSecret[] }>(
      this.orm.em,
      `SELECT ${TARGET_VERSION_SQL} AS version, url, signing_secret_encrypted AS secret, previous_signing_secrets AS previous
       FROM webhook_subscriptions WHERE id = $1 AND deleted_at IS NULL`,
      [subscriptionId],
    );
    if (rows.length === 0) {
      this.kept.delete(subscriptionId);
      return null;
    }
    const [row] = rows;
    const found = { version: row.version, target: { url: row.url, signingSecret: this.secrets.secret(row.secret), previousSecrets: this.secrets.previous(row.previous) } };
    if (this.kept.size >= KEPT) this.kept.clear();
    this.kept.set(subscriptionId, found);
    return found;
  }
}
