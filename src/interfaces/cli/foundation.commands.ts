import { CreateApiKey } from '../../application/api-key/create-api-key.use-case';
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
  summary: 'create an API key for a tenant (the key is shown only now)',
  usage: 'api-key:create --tenant T',
  required: ['tenant'],
  run: async (context, options) => {
    const { apiKeyId, apiKey } = await context.get(CreateApiKey).execute({ tenantId: options.tenant });
    return { apiKeyId, apiKey };
  },
  text: (result) => {
    const { apiKeyId, apiKey } = result as { apiKeyId: string; apiKey: string };
    return `api key created: ${apiKeyId}\nkey (shown once, store it now): ${apiKey}`;
  },
};

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
