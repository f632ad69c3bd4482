import { FilterTargets } from '../../../src/application/webhook/subscriptions/filter-targets.port';
import { DeliveryRequests, ManualDelivery } from '../../../src/application/webhook/subscriptions/delivery-requests.port';
import { TargetPolicy } from '../../../src/application/webhook/subscriptions/target-policy.port';
import { WebhookLimits } from '../../../src/application/webhook/subscriptions/webhook-limits.port';
import { InvalidValueError } from '../../../src/domain/shared/domain-error';
import { DomainEvent } from '../../../src/domain/shared/domain-event';
import { TestDelivery } from '../../../src/domain/webhook/test-delivery';
import { WebhookSubscription } from '../../../src/domain/webhook/webhook-subscription';
import { SigningSecretGenerator } from '../../../src/domain/webhook/signing-secret-generator.port';
import { WebhookSubscriptionRepository } from '../../../src/domain/webhook/webhook-subscription-repository.port';

// Fakes of the webhook ports for use-case tests: each extends its port, keeps what it was given,
// and answers as the SQL adapter would for the cases the tests set up.

/** Subscriptions in a map, saved as copies (a use case that forgets to save changes nothing). */
export class InMemorySubscriptions extends WebhookSubscriptionRepository {
  readonly rows = new Map<string, WebhookSubscription>();
  /** Every subscription loaded with its secrets; existence checks must not add to it. */
  readonly loaded: string[] = [];
  readonly held: string[] = [];
  readonly locked: string[] = [];

  async findById(tenantId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<WebhookSubscription | null> {
    const row = this.live(tenantId, id);
    if (!row) return null;
    this.loaded.push(id);
    if (options.forUpdate) this.locked.push(id);
    return copy(row);
  }

  async holdLive(tenantId: string, id: string): Promise<readonly string[] | null> {
    const live = this.live(tenantId, id);
    if (!live) return null;
    this.held.push(id);
    return live.events;
  }

  async add(subscription: WebhookSubscription, limit: number): Promise<boolean> {
    const live = [...this.rows.values()].filter((s) => s.tenantId === subscription.tenantId && !s.isDeleted()).length;
    if (live >= limit) return false;
    this.rows.set(subscription.id, copy(subscription));
    return true;
  }

  /** The events the saved subscriptions recorded, in order. */
  readonly events: DomainEvent[] = [];
  /** Everything as the aggregate has it, and its events, as the SQL repository's one `save`. */
  async save(subscription: WebhookSubscription): Promise<void> {
    this.events.push(...subscription.pullEvents());
    this.rows.set(subscription.id, copy(subscription));
  }

  private live(tenantId: string, id: string): WebhookSubscription | undefined {
    const row = this.rows.get(id);
    return row && row.tenantId === tenantId && !row.isDeleted() ? row : undefined;
  }
}

function copy(subscription: WebhookSubscription): WebhookSubscription {
  return WebhookSubscription.restore({ ...subscription, events: [...subscription.events], previousSecrets: [...subscription.previousSecrets] });
}

/** Manual delivery requests: answers what a test scripts, keeps what it was asked. */
export class ScriptedDeliveryRequests extends DeliveryRequests {
  redeliverAnswer: ManualDelivery | 'not-found' | 'in-flight' | 'no-room' = 'not-found';
  recoverAnswer = { queued: 0, hasMore: false };
  testAnswer: 'added' | 'no-room' = 'added';
  readonly calls: { method: string; input: unknown }[] = [];
  readonly tests: TestDelivery[] = [];

  async redeliver(input: Parameters<DeliveryRequests['redeliver']>[0]) {
    this.calls.push({ method: 'redeliver', input });
    return this.redeliverAnswer;
  }

  async recover(input: Parameters<DeliveryRequests['recover']>[0]) {
    this.calls.push({ method: 'recover', input });
    return this.recoverAnswer;
  }

  async addTest(delivery: TestDelivery, pendingMax: number) {
    this.calls.push({ method: 'addTest', input: { pendingMax } });
    if (this.testAnswer === 'added') this.tests.push(delivery);
    return this.testAnswer;
  }
}

/** `whsec_test_1`, `whsec_test_2`, … */
export class CountingSigningSecrets extends SigningSecretGenerator {
  private made = 0;
  generate(): string {
    return `whsec_test_${++this.made}`;
  }
}

/** Refuses URLs on the host `forbidden.example`, as the address policy refuses literal private addresses. */
export class HostTargetPolicy extends TargetPolicy {
  check(url: string): void {
    if (new URL(url).hostname === 'forbidden.example') throw new InvalidValueError('url', 'must not point at a private address');
  }
}

export class FixedWebhookLimits extends WebhookLimits {
  constructor(
    readonly subscriptionsPerTenant = 3,
    readonly manualPendingPerTenant = 10,
  ) {
    super();
  }
}

/** The page groups and brands each tenant has, for a filter's ids (tenant → ids). */
export class KnownFilterTargets extends FilterTargets {
  readonly pageGroups = new Map<string, Set<string>>();
  readonly brands = new Map<string, Set<string>>();
  async pageGroupsOf(tenantId: string, ids: readonly string[]): Promise<Set<string>> {
    return new Set(ids.filter((id) => this.pageGroups.get(tenantId)?.has(id)));
  }
  async brandsOf(tenantId: string, ids: readonly string[]): Promise<Set<string>> {
    return new Set(ids.filter((id) => this.brands.get(tenantId)?.has(id)));
  }
}
