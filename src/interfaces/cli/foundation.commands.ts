import { CreateApiKey } from '../../application/api-key/create-api-key.use-case';
import { ListApiKeys } from '../../application/api-key/list-api-keys.use-case';
import { API_KEY_SCOPES } from '../../domain/api-key/api-key-scope';
import { RevokeApiKey } from '../../application/api-key/revoke-api-key.use-case';
import { CreateTenant } from '../../application/tenant/create-tenant.use-case';
import { CliCommand } from './cli-context';

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
