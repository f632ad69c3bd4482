import { CliCommand } from './cli-context';
import { apiKeyCreateCommand, apiKeyRevokeCommand, migrateCommand, tenantCreateCommand } from './foundation.commands';

/** Every command of the platform CLI, in the order `help` lists them. */
export const CLI_COMMANDS: CliCommand[] = [migrateCommand, tenantCreateCommand, apiKeyCreateCommand, apiKeyRevokeCommand];
