import { OpenPortalSession } from '../../../../src/application/portal/open-portal-session.use-case';
import { ListPortalSessions, RevokePortalSession } from '../../../../src/application/portal/manage-portal-sessions.use-case';
import { AuthenticatePortalSession, ExchangePortalLink } from '../../../../src/application/portal/portal-access.use-case';
import { PortalRefusedError, PortalScopeError } from '../../../../src/domain/portal/portal-session';
import { InvalidValueError, NotFoundError } from '../../../../src/domain/shared/domain-error';
import { WebhookSubscription } from '../../../../src/domain/webhook/webhook-subscription';
import { aSubscriptionBody } from '../../../support/builders/subscriptions';
import { FixedClock } from '../../../support/fakes/fixed-clock';
import { ImmediateUnitOfWork } from '../../../support/fakes/immediate-unit-of-work';
import { CountingPortalSecrets, InMemoryPortalSessions } from '../../../support/fakes/in-memory-portal';
import { InMemorySubscriptions } from '../../../support/fakes/in-memory-webhooks';
import { InMemoryTenants } from '../../../support/fakes/in-memory-keys';
import { Tenant } from '../../../../src/domain/tenant/tenant';

const TENANT = 'tenant_01jdq8w9k1a2b3c4d5e6f7g8h9';
const OTHER = 'tenant_01jdq8w9k1a2b3c4d5e6f7g8ha';
const T0 = new Date('2026-12-06T10:00:00.000Z');

function setup() {
  const sessions = new InMemoryPortalSessions();
  const tenants = new InMemoryTenants();
  for (const id of [TENANT, OTHER]) tenants.rows.set(id, Tenant.restore({ id, name: id, createdAt: T0 }));
  const subscriptions = new InMemorySubscriptions();
  const secrets = new CountingPortalSecrets();
  const clock = new FixedClock(T0);
  const unitOfWork = new ImmediateUnitOfWork();
  const mine = WebhookSubscription.create(aSubscriptionBody(TENANT), 'whsec_x', T0);
  const theirs = WebhookSubscription.create(aSubscriptionBody(OTHER), 'whsec_y', T0);
  subscriptions.rows.set(mine.id, mine);
  subscriptions.rows.set(theirs.id, theirs);
  return {
    sessions,
    clock,
    mine,
    theirs,
    open: new OpenPortalSession(tenants, sessions, subscriptions, secrets, clock, unitOfWork),
    list: new ListPortalSessions(sessions, clock),
    revoke: new RevokePortalSession(sessions, clock, unitOfWork),
    exchange: new ExchangePortalLink(sessions, secrets, clock, unitOfWork),
    authenticate: new AuthenticatePortalSession(sessions, secrets, clock),
  };
}
const asked = { tenantId: TENANT, apiKeyId: 'apikey_x', grant: null, capabilities: ['deliveries:retry'], expiresInSeconds: 3600 };

describe('portal session use cases', () => {
  it('open a session with a one-use link, exchanged for a session token that authenticates as the tenant', async () => {
    const { open, exchange, authenticate, sessions } = setup();
    const { session, linkToken } = await open.execute(asked);
    expect(session).toMatchObject({ capabilities: ['deliveries:read', 'deliveries:retry'], status: 'active', linkUsed: false, expiresAt: '2026-12-06T11:00:00.000Z' });
    // Only hashes are kept.
    expect(JSON.stringify([...sessions.rows.values()])).not.toContain(`"${linkToken}"`);
    const { sessionToken } = await exchange.execute({ linkToken });
    await expect(exchange.execute({ linkToken })).rejects.toMatchObject({ reason: 'used' });
    expect(await authenticate.execute(sessionToken)).toMatchObject({
      tenantId: TENANT, portalSessionId: session.id, capabilities: ['deliveries:read', 'deliveries:retry'], subscriptionIds: null,
    });
  });

  it('refuse to open a session wider than the key that asks, naming the scopes it lacks', async () => {
    const { open, sessions } = setup();
    const refused = open.execute({ ...asked, grant: ['webhooks:read', 'events:read'], capabilities: ['subscriptions:manage'] });
    await expect(refused).rejects.toBeInstanceOf(PortalScopeError);
    await expect(refused).rejects.toMatchObject({ details: { missingScopes: ['webhooks:write'] } });
    expect(sessions.rows.size).toBe(0);
  });

  it("narrow a session to the tenant's own live subscriptions only, naming the one that is not", async () => {
    const { open, mine, theirs, sessions } = setup();
    expect((await open.execute({ ...asked, subscriptionIds: [mine.id] })).session.subscriptionIds).toEqual([mine.id]);
    const refused = open.execute({ ...asked, subscriptionIds: [mine.id, theirs.id] });
    await expect(refused).rejects.toBeInstanceOf(InvalidValueError);
    await expect(refused).rejects.toMatchObject({ details: { field: 'subscriptionIds[1]' } });
    await expect(open.execute({ ...asked, subscriptionIds: ['not-an-id'] })).rejects.toMatchObject({ details: { field: 'subscriptionIds[0]' } });
    expect(sessions.rows.size).toBe(1);
  });

  it('stop a session at once when it is revoked or expires, saying why', async () => {
    const { open, exchange, authenticate, revoke, clock } = setup();
    const first = await open.execute(asked);
    const { sessionToken } = await exchange.execute({ linkToken: first.linkToken });
    await revoke.execute({ tenantId: TENANT, id: first.session.id });
    await expect(authenticate.execute(sessionToken)).rejects.toMatchObject({ reason: 'revoked' });

    const second = await open.execute({ ...asked, expiresInSeconds: 300 });
    const other = await exchange.execute({ linkToken: second.linkToken });
    clock.advance(300_000);
    await expect(authenticate.execute(other.sessionToken)).rejects.toMatchObject({ reason: 'expired' });
    await expect(authenticate.execute('session-999')).rejects.toBeInstanceOf(PortalRefusedError);
    await expect(authenticate.execute('lp_not-a-session-token')).rejects.toMatchObject({ reason: 'unknown' });
  });

  it("keep a tenant's sessions to itself: another tenant's id is not found", async () => {
    const { open, revoke, list } = setup();
    const { session } = await open.execute(asked);
    await expect(revoke.execute({ tenantId: OTHER, id: session.id })).rejects.toBeInstanceOf(NotFoundError);
    expect((await list.execute({ tenantId: OTHER, page: { limit: 10 } })).items).toEqual([]);
    expect((await list.execute({ tenantId: TENANT, page: { limit: 10 } })).items.map((s) => s.id)).toEqual([session.id]);
  });
});
