import { MikroORM } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { SubscriptionNow, SubscriptionTarget, SubscriptionTargets } from '../../../application/webhook/attempt/subscription-targets.port';
import { GroupWriter } from '../connection/group-writer';
import { DecryptedSecrets, StoredPreviousSecret } from '../../crypto/decrypted-secrets';
import { sqlQuery } from '../connection/sql-statement';
import { DELIVERY_STATES_OF, DeliveryStateRow, deliveryStateOf, TARGET_OF } from './subscription-delivery-state.sql';
import type { StoredColumns } from '../typed/statement';

/** Subscriptions kept at most; past it the map starts again (a worker serves a few thousand). */
const KEPT = 10_000;

/** Subscriptions' targets read from PostgreSQL and kept in the worker by version; their delivery state read afresh in groups. */
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

  now(subscriptionId: string): Promise<SubscriptionNow | null> {
    return this.states.add(subscriptionId);
  }

  /** One read for every subscription asked for at once (a drain asks for one, many times). */
  private readonly states = new GroupWriter<string, SubscriptionNow | null>((ids) => this.readStates(ids), { maxInFlight: 1, maxBatch: 200 });

  private async readStates(ids: string[]): Promise<(SubscriptionNow | null)[]> {
    const { rows } = await sqlQuery<DeliveryStateRow>(this.orm.em, DELIVERY_STATES_OF, [[...new Set(ids)]]);
    const byId = new Map(rows.map((row) => [row.id, { ...deliveryStateOf(row, row.id), healthy: row.healthy, version: row.version }]));
    return ids.map((id) => byId.get(id) ?? null);
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
    const { rows } = await sqlQuery<StoredColumns<'webhook_subscriptions', 'url'> & { version: string; secret: string; previous: StoredPreviousSecret[] }>(
      this.orm.em,
      TARGET_OF,
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
