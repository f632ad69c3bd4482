import { ConfigError } from './config-error';
import { type Env, envReader } from './env-reader';
import { type HttpConfig, httpConfig } from './http-config';
import { type ListenConfig, type RuntimeConfig, listenConfig, runtimeConfig } from './process-config';
import { type StorageConfig, storageConfig } from './storage-config';
import { type WebhookConfig, webhookConfig } from './webhook-config';

// Configuration comes from the environment only, checked once at start: a bad value stops the
// process with a message naming the variable (README, Configuration). Each area reads its own
// variables; what spans areas is checked here.

export interface AppConfig extends ListenConfig, StorageConfig, RuntimeConfig, HttpConfig {
  webhooks: WebhookConfig;
}

export function loadConfig(env: Env = process.env): AppConfig {
  const reader = envReader(env);
  // The areas are read in a fixed order (listening, storage, runtime, webhooks, the edge), so the
  // problems of one start are always listed in the same order.
  const config: AppConfig = {
    ...listenConfig(reader),
    ...storageConfig(reader),
    ...runtimeConfig(reader),
    webhooks: webhookConfig(reader, env),
    ...httpConfig(reader),
  };
  const problems = [...reader.problems, ...crossAreaProblems(config)];
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

function crossAreaProblems(config: AppConfig): string[] {
  const problems: string[] = [];
  const production = config.nodeEnv === 'production';
  if (production && !config.secretsEncryptionKey) {
    problems.push('SECRETS_ENCRYPTION_KEY is required when NODE_ENV=production (base64 of 32 bytes)');
  }
  // The bench's baselines answer without the contract's checks (baseline (c) lists any tenant's
  // brands with no key): never in production, whatever else is set.
  if (production && config.benchBaselines) {
    problems.push('BENCH_BASELINES is for `npm run bench` only and is refused when NODE_ENV=production');
  }
  if (config.redisClusterNodes && config.redisUrl) problems.push('REDIS_URL and REDIS_CLUSTER_NODES are both set: set one (a cluster is reached through its nodes)');
  // A hash tag in the prefix would win over each queue's own: every queue on one shard.
  if (config.redisClusterNodes && /[{}]/.test(config.webhooks.queuePrefix)) {
    problems.push('QUEUE_PREFIX must have no braces with REDIS_CLUSTER_NODES: each delivery queue has a hash tag of its own, which a tag in the prefix would override (every queue on one shard)');
  }
  return problems;
}
