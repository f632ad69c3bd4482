import { CliCommand } from './cli-context';
import { apiKeyCreateCommand, apiKeyListCommand, apiKeyRevokeCommand, migrateCommand, portalCreateCommand, tenantCreateCommand } from './foundation.commands';
import {
  demoSeedCommand,
  pageGroupCreateCommand,
  pageGroupDeleteCommand,
  pageGroupSetStatusCommand,
  pageVersionCreateCommand,
  sessionRecordCommand,
  templateCreateSystemCommand,
} from './page.commands';
import { seedBulkCommand } from './seed.commands';
import { webhookRecoverCommand, webhookRedeliverCommand } from './webhook.commands';

/** Every command of the platform CLI, in the order `help` lists them. */
export const CLI_COMMANDS: CliCommand[] = [
  migrateCommand,
  tenantCreateCommand,
  apiKeyCreateCommand,
  apiKeyListCommand,
  apiKeyRevokeCommand,
  portalCreateCommand,
  templateCreateSystemCommand,
  pageGroupCreateCommand,
  pageGroupSetStatusCommand,
  pageGroupDeleteCommand,
  pageVersionCreateCommand,
  sessionRecordCommand,
  webhookRedeliverCommand,
  webhookRecoverCommand,
  demoSeedCommand,
  seedBulkCommand,
];
