import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { freePort } from '../support/ports';
import { createInterface } from 'node:readline';
import { HmacWebhookSigner } from '../../src/infrastructure/webhooks/hmac-webhook.signer';

const ROOT = join(__dirname, '..', '..');

describe('docker-compose.yml', () => {
  const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'));
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const documented = new Set([...readme.matchAll(/^\| `([A-Z_]+)`(?:, `([A-Z_]+)`)? \|/gm)].flatMap((m) => [m[1], m[2]].filter(Boolean)));

  it('brings up PostgreSQL, Redis, the API and the worker, each with a health check, after a one-shot migrate', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['api', 'migrate', 'postgres', 'redis', 'worker']);
    for (const name of ['api', 'postgres', 'redis', 'worker']) expect(compose.services[name].healthcheck?.test).toBeDefined();
    expect(compose.services.migrate.command).toEqual(['node', 'dist/cli.js', 'migrate']);
    for (const name of ['api', 'worker']) {
      expect(compose.services[name].depends_on.migrate).toEqual({ condition: 'service_completed_successfully' });
      expect(compose.services[name].environment.MIGRATE_ON_START).toBe('false');
      expect(compose.services[name].restart).toBe('unless-stopped');
    }
    expect(compose.services.api.ports).toEqual(['3000:3000']);
    expect(compose.services.api.environment.SERVICE_ROLE).toBe('api');
    expect(compose.services.worker.environment.SERVICE_ROLE).toBe('worker');
    expect(compose.services.api.depends_on).toMatchObject({ postgres: { condition: 'service_healthy' }, redis: { condition: 'service_healthy' } });
  });

  it('sets only variables the README documents, and points them at the compose services', () => {
    for (const name of ['api', 'worker', 'migrate']) {
      const env = compose.services[name].environment;
      for (const key of Object.keys(env)) expect({ service: name, key, documented: documented.has(key) }).toEqual({ service: name, key, documented: true });
      expect(env.DATABASE_URL).toMatch(/@postgres:5432\//);
      if (name !== 'migrate') expect(env.REDIS_URL).toBe('redis://redis:6379');
      expect(env.NODE_ENV).toBe('production');
      expect(env.SECRETS_ENCRYPTION_KEY).toMatch(/^\$\{SECRETS_ENCRYPTION_KEY/);
    }
    expect(compose.services.api.environment.PORT).toBe('3000');
  });
});

describe('README configuration table', () => {
  it('documents every variable the configuration reads', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    // Each area of the configuration reads its own variables (src/infrastructure/config/*-config.ts).
    const dir = join(ROOT, 'src', 'infrastructure', 'config');
    const source = readdirSync(dir).filter((file) => file.endsWith('.ts')).map((file) => readFileSync(join(dir, file), 'utf8')).join('\n');
    const read = [...source.matchAll(/\b(?:read|integer|flag)(?:<[^>]+>)?\('([A-Z_]+)'/g)].map((m) => m[1]);
    expect(read.length).toBeGreaterThan(20);
    const table = readme.slice(readme.indexOf('## Configuration'));
    for (const name of read) expect({ name, documented: table.includes(`\`${name}\``) }).toEqual({ name, documented: true });
  });
});

describe('examples/webhook-receiver.ts', () => {
  it('accepts a correctly signed delivery, with either secret of a rotation, and refuses a forged one or one stripped of its timestamp', async () => {
    const port = await freePort();
    const secret = `whsec_${Buffer.alloc(32, 5).toString('base64')}`;
    const previous = `whsec_${Buffer.alloc(32, 6).toString('base64')}`;
    const child = spawn(process.execPath, [join(ROOT, 'examples', 'webhook-receiver.ts')], { env: { ...process.env, SIGNING_SECRET: `${secret},${previous}`, PORT: String(port) }, stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((done) => createInterface({ input: child.stdout! }).on('line', (line) => line.startsWith('listening') && done()));
      const body = JSON.stringify({ id: 'evt_1', type: 'page.version.created', data: {} });
      const send = (headers: Record<string, string>) => fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body, headers }).then((res) => res.status);
      const signed = (signingSecret: string) => new HmacWebhookSigner().headers({ eventId: 'evt_1', eventType: 'page.version.created', body, signingSecret, sentAt: new Date() });
      expect(await send(signed(secret))).toBe(204);
      expect(await send(signed(previous))).toBe(204);
      const forged = signed(secret);
      forged['webhook-signature'] = forged['webhook-signature'].replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
      expect(await send(forged)).toBe(401);
      expect(await send({})).toBe(401);
      // The legacy header alone signs no time: a replay stripped of webhook-* is refused.
      expect(await send({ 'x-webhook-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}` })).toBe(401);
    } finally {
      child.kill();
    }
  });
});
