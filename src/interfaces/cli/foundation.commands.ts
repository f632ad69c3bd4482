import { portalAddress } from '../http/portal/portal-url';
import { CreateApiKey } from '../../application/api-key/create-api-key.use-case';
import { ListApiKeys } from '../../application/api-key/list-api-keys.use-case';
import { API_KEY_SCOPES } from '../../domain/api-key/api-key-scope';
import { RevokeApiKey } from '../../application/api-key/revoke-api-key.use-case';
import { CreateTenant } from '../../application/tenant/create-tenant.use-case';
import { CliCommand } from './cli-context';
import { OpenPortalSession } from '../../application/portal/open-portal-session.use-case';
import { PORTAL_CAPABILITIES } from '../../domain/portal/portal-capability';

// The platform side of tenants and keys (platform-cli.md). Each command is one use case call,
// so each writes in one transaction or not at all.

export const migrateCommand: CliCommand = {
  name: 'migrate',
  summary: 'apply pending database migrations',
  usage: 'migrate',
  required: [],
  run: async (context) => ({ applied: context.appliedMigrations }),
  text: (result) => {
    const { applied } = result as { applied: string[] };
    return applied.length === 0 ? 'database is up to date' : `applied:\n${applied.map((name) => `  ${name}`).join('\n')}`;
  },
};

export const tenantCreateCommand: CliCommand = {
  name: 'tenant:create',
  summary: 'create a tenant',
  usage: 'tenant:create --name N',
  required: ['name'],
  run: async (context, options) => {
    const { tenantId } = await context.get(CreateTenant).execute({ name: options.name });
    return { tenantId };
  },
  text: (result) => `tenant created: ${(result as { tenantId: string }).tenantId}`,
};

export const apiKeyCreateCommand: CliCommand = {
  name: 'api-key:create',
  summary: 'create an API key for a tenant (the key is shown only now); --scopes limits what it may do',
  usage: `api-key:create --tenant T [--scopes ${API_KEY_SCOPES.slice(0, 2).join(',')},…]`,
  required: ['tenant'],
  optional: ['scopes'],
  run: async (context, options) => {
    const scopes = options.scopes === undefined ? undefined : options.scopes.split(',').map((scope) => scope.trim()).filter(Boolean);
    const { apiKeyId, apiKey, scopes: granted } = await context.get(CreateApiKey).execute({ tenantId: options.tenant, scopes });
    return { apiKeyId, apiKey, scopes: granted };
  },
  text: (result) => {
    const { apiKeyId, apiKey, scopes } = result as { apiKeyId: string; apiKey: string; scopes: string[] | null };
    return `api key created: ${apiKeyId}\nscopes: ${scopesText(scopes)}\nkey (shown once, store it now): ${apiKey}`;
  },
};

export const apiKeyListCommand: CliCommand = {
  name: 'api-key:list',
  summary: "list a tenant's API keys with their scopes (never the keys themselves)",
  usage: 'api-key:list --tenant T',
  required: ['tenant'],
  run: (context, options) => context.get(ListApiKeys).execute({ tenantId: options.tenant }),
  text: (result) => {
    const { apiKeys } = result as Awaited<ReturnType<ListApiKeys['execute']>>;
    if (apiKeys.length === 0) return 'no api keys';
    return apiKeys
      .map((key) => `${key.apiKeyId}  ${key.displayPrefix}…  ${key.revokedAt ? `revoked ${key.revokedAt}` : 'active'}  scopes: ${scopesText(key.scopes)}`)
      .join('\n');
  },
};

function scopesText(scopes: readonly string[] | null): string {
  return scopes === null ? 'all (full access)' : scopes.join(', ');
}

export const apiKeyRevokeCommand: CliCommand = {
  name: 'api-key:revoke',
  summary: 'revoke an API key; the next request with it is a 401',
  usage: 'api-key:revoke --id K',
  required: ['id'],
  run: (context, options) => context.get(RevokeApiKey).execute({ apiKeyId: options.id }),
  text: (result) => {
    const { apiKeyId, revokedAt } = result as { apiKeyId: string; revokedAt: string };
    return `api key ${apiKeyId} revoked at ${revokedAt}`;
  },
};

export const portalCreateCommand: CliCommand = {
  name: 'portal:create',
  summary: "open a webhook portal session for a tenant's people; its URL is shown only now (decision 186)",
  usage: `portal:create --tenant T --capabilities ${PORTAL_CAPABILITIES.slice(0, 2).join(',')},… --expires-in SECONDS [--origins O1,O2] [--subscriptions S1,S2] [--base-url URL]`,
  required: ['tenant', 'capabilities', 'expires-in'],
  optional: ['origins', 'subscriptions', 'base-url'],
  run: async (context, options) => {
    const list = (value: string | undefined) => (value === undefined ? undefined : value.split(',').map((item) => item.trim()).filter(Boolean));
    const seconds = Number(options['expires-in']);
    const { session, linkToken } = await context.get(OpenPortalSession).execute({
      tenantId: options.tenant,
      apiKeyId: null,
      grant: null,
      capabilities: list(options.capabilities) ?? [],
      expiresInSeconds: seconds,
      allowedOrigins: list(options.origins),
      subscriptionIds: list(options.subscriptions),
    });
    // The operator's own address for the API (the CLI has no request to take it from).
    return { ...session, url: portalAddress(options['base-url'] ?? 'http://127.0.0.1:3000', session.id, linkToken) };
  },
  text: (result) => {
    const { id, capabilities, expiresAt, url } = result as { id: string; capabilities: string[]; expiresAt: string; url: string };
    return `portal session opened: ${id}\ncapabilities: ${capabilities.join(', ')}\nexpires: ${expiresAt}\nurl (shown once, opens the portal once): ${url}`;
  },
};
