import { ConfigError, loadConfig } from '../../../src/infrastructure/config/app-config';

describe('configuration', () => {
  it('has the documented defaults', () => {
    expect(loadConfig({})).toEqual({
      nodeEnv: 'development',
      host: '0.0.0.0',
      port: 3000,
      databaseUrl: undefined,
      databasePoolMax: 10,
      redisUrl: undefined,
      logLevel: 'info',
      docsEnabled: true,
      dataDir: '.data',
      shutdownGraceMs: 10000,
    });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      PORT: '8080',
      DATABASE_URL: 'postgres://u:p@db:5432/app',
      REDIS_URL: 'redis://cache:6379',
      LOG_LEVEL: 'debug',
      DOCS_ENABLED: 'false',
    });
    expect(config).toMatchObject({ nodeEnv: 'production', port: 8080, databaseUrl: 'postgres://u:p@db:5432/app', redisUrl: 'redis://cache:6379', logLevel: 'debug', docsEnabled: false });
  });

  it('names every bad variable, and never prints a connection string whole', () => {
    let error: ConfigError | undefined;
    try {
      loadConfig({ PORT: '70000', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://root:hunter2@db/app', DOCS_ENABLED: 'yes' });
    } catch (caught) {
      error = caught as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(error!.problems.map((p) => p.split(' ')[0])).toEqual(['PORT', 'DATABASE_URL', 'LOG_LEVEL', 'DOCS_ENABLED']);
    expect(error!.message).not.toContain('hunter2');
  });
});
