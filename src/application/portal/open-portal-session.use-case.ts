import { Injectable } from '@nestjs/common';
import { ApiKeyScopes } from '../../domain/api-key/api-key-scope';
import { parseCapabilities, scopesMissing } from '../../domain/portal/portal-capability';
import { PortalScopeError, PortalSession } from '../../domain/portal/portal-session';
import { PortalSecrets } from '../../domain/portal/portal-secrets.port';
import { PortalSessionRepository } from '../../domain/portal/portal-session-repository.port';
import { Clock } from '../../domain/shared/clock.port';
import { InvalidValueError } from '../../domain/shared/domain-error';
import { isTypeId } from '../../domain/shared/type-id';
import { WebhookSubscriptionRepository } from '../../domain/webhook/webhook-subscription-repository.port';
import { UnitOfWork } from '../shared/unit-of-work.port';
import { foundOrFail } from '../shared/found-or-fail';
import { TenantRepository } from '../../domain/tenant/tenant-repository.port';
import { PortalSessionView, toPortalSessionView } from './portal-session.view';

export interface OpenPortalSessionInput {
  tenantId: string;
  /** The key that asks (null: the platform's CLI, which holds every scope). */
  apiKeyId: string | null;
  grant: ApiKeyScopes;
  capabilities: readonly string[];
  expiresInSeconds: number;
  subscriptionIds?: readonly string[];
  allowedOrigins?: readonly string[];
}

/**
 * Opens a portal session: checked against the key's scopes and the tenant's live subscriptions,
 * kept with its link token's hash. The link token is returned once, to be put in the portal URL's
 * fragment (a browser never sends a fragment to a server, nor in a Referer).
 */
@Injectable()
export class OpenPortalSession {
  constructor(
    private readonly tenants: TenantRepository,
    private readonly sessions: PortalSessionRepository,
    private readonly subscriptions: WebhookSubscriptionRepository,
    private readonly secrets: PortalSecrets,
    private readonly clock: Clock,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async execute(input: OpenPortalSessionInput): Promise<{ session: PortalSessionView; linkToken: string }> {
    const capabilities = parseCapabilities(input.capabilities);
    const missing = scopesMissing(input.grant, capabilities);
    if (missing.length > 0) throw new PortalScopeError(missing);
    const link = this.secrets.generate('link');
    const now = this.clock.now();
    const session = PortalSession.open({ ...input, capabilities, linkTokenHash: link.hash, createdByApiKeyId: input.apiKeyId, now });
    return this.unitOfWork.run(async () => {
      // The CLI names a tenant; a key's tenant exists.
      await foundOrFail('tenant', 'tenant', input.tenantId, () => this.tenants.findById(input.tenantId));
      // Each subscription it is narrowed to must be the tenant's and live, held until the commit.
      for (const [i, id] of (session.subscriptionIds ?? []).entries()) {
        const live = isTypeId(id, 'whsub') ? await this.subscriptions.holdLive(input.tenantId, id) : null;
        if (live === null) throw new InvalidValueError(`subscriptionIds[${i}]`, 'is not a webhook subscription of this tenant');
      }
      await this.sessions.add(session);
      return { session: toPortalSessionView(session, now), linkToken: link.token };
    });
  }
}
