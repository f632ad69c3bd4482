import { MikroORM } from '@mikro-orm/postgresql';
import { builtCli, cli } from '../support/cli';
import { openTestOrm } from '../support/database';
import { startTestApp, TestApp } from '../support/test-app';

let orm: MikroORM;
let t: TestApp;
beforeAll(async () => {
  orm = await openTestOrm();
  t = await startTestApp({ orm });
});
afterAll(async () => {
  await t.close();
  await orm.close(true);
});

// Other test files write tenants and keys into the same database at the same time: "nothing
// written" is checked on what this command could have written, the rows created since it started.
const writtenSince = async (since: Date) =>
  Number(
    (
      await orm.em
        .fork()
        .getConnection()
        .execute<{ n: string }[]>(
          `SELECT (SELECT count(*) FROM tenants WHERE created_at >= ? AND name IN ('', '   ', 'bad-input-colour')) + (SELECT count(*) FROM api_keys k JOIN tenants t ON t.id = k.tenant_id WHERE k.created_at >= ? AND t.name IN ('', '   ', 'bad-input-colour')) AS n`,
          [since, since],
        )
    )[0].n,
  );

describe('platform CLI: tenants and keys', () => {
  it('migrate reports nothing to apply on a migrated database', async () => {
    const res = await cli('migrate', '--json');
    expect(res).toMatchObject({ code: 0, json: { applied: [] } });
    expect(res.stdout).toHaveLength(1);
  });

  it('creates a tenant and a key that the API accepts, then revokes it so that the API refuses it', async () => {
    const tenant = await cli('tenant:create', '--name', 'CLI tenant', '--json');
    expect(tenant.code).toBe(0);
    expect(tenant.json).toEqual({ tenantId: expect.stringMatching(/^tenant_[0-9a-z]{26}$/) });

    const key = await cli('api-key:create', '--tenant', tenant.json.tenantId, '--json');
    expect(key.code).toBe(0);
    expect(key.json).toEqual({ apiKeyId: expect.stringMatching(/^apikey_/), apiKey: expect.stringMatching(/^lp_/), scopes: null });
    expect((await t.http.get('/v0/brands').set('x-api-key', key.json.apiKey)).status).toBe(200);

    const revoked = await cli('api-key:revoke', '--id', key.json.apiKeyId, '--json');
    expect(revoked.code).toBe(0);
    expect(revoked.json).toEqual({ apiKeyId: key.json.apiKeyId, revokedAt: expect.any(String) });
    expect((await t.http.get('/v0/brands').set('x-api-key', key.json.apiKey)).status).toBe(401);
  });

  it('grants scopes at api-key:create --scopes and shows them in api-key:list, never the key', async () => {
    const tenant = await cli('tenant:create', '--name', 'Scoped', '--json');
    const key = await cli('api-key:create', '--tenant', tenant.json.tenantId, '--scopes', 'events:read, brands:read', '--json');
    expect(key.code).toBe(0);
    // In the catalogue's order, whatever order they were given in.
    expect(key.json.scopes).toEqual(['brands:read', 'events:read']);
    expect((await t.http.get('/v0/brands').set('x-api-key', key.json.apiKey)).status).toBe(200);
    expect((await t.http.post('/v0/brands').set('x-api-key', key.json.apiKey).send({})).status).toBe(403);
    const full = await cli('api-key:create', '--tenant', tenant.json.tenantId, '--json');

    const list = await cli('api-key:list', '--tenant', tenant.json.tenantId, '--json');
    expect(list.stderr).toEqual([]);
    expect(list.code).toBe(0);
    expect(list.json.apiKeys).toEqual([
      expect.objectContaining({ apiKeyId: full.json.apiKeyId, scopes: null, revokedAt: null }),
      expect.objectContaining({ apiKeyId: key.json.apiKeyId, scopes: ['brands:read', 'events:read'], displayPrefix: key.json.apiKey.slice(0, 11) }),
    ]);
    expect(JSON.stringify(list.json)).not.toContain(key.json.apiKey);
    const text = await cli('api-key:list', '--tenant', tenant.json.tenantId);
    expect(text.stdout.join('\n')).toContain('scopes: brands:read, events:read');
    expect(text.stdout.join('\n')).toContain('scopes: all (full access)');
  });

  it('prints readable text without --json', async () => {
    const res = await cli('tenant:create', '--name', 'Texty');
    expect(res.code).toBe(0);
    expect(res.stdout[0]).toMatch(/^tenant created: tenant_/);
  });

  it.each([
    [['tenant:create'], 'option --name is required'],
    [['tenant:create', '--name', '   '], 'name'],
    [['tenant:create', '--name', 'bad-input-colour', '--colour', 'red'], 'unknown option --colour'],
    [['api-key:create'], 'option --tenant is required'],
    [['api-key:create', '--tenant', 'tenant_01jdq8w9k1a2b3c4d5e6f7g8h9', '--scopes', 'brands:read,brands:delete'], 'unknown scope'],
    [['api-key:create', '--tenant', 'tenant_01jdq8w9k1a2b3c4d5e6f7g8h9', '--scopes', ','], 'at least one scope'],
    [['no:such-command'], 'unknown command'],
  ])('exits 2 on bad input %j, with one line on stderr and nothing written', async (argv, message) => {
    const since = new Date(Date.now() - 1000);
    const res = await cli(...argv, '--json');
    expect(res.code).toBe(2);
    expect(res.stdout).toEqual([]);
    expect(res.stderr).toHaveLength(1);
    expect(res.stderr[0]).toContain(message);
    expect(await writtenSince(since)).toBe(0);
  });

  it.each([
    ['api-key:create', '--tenant', 'tenant_01jdq8w9k1a2b3c4d5e6f7g8h9'],
    ['api-key:revoke', '--id', 'apikey_01jdq8w9k1a2b3c4d5e6f7g8h9'],
    ['api-key:create', '--tenant', 'garbage'],
  ])('exits 2 with `not found: <id>` for an unknown id (%s %s %s)', async (...argv) => {
    const res = await cli(...argv);
    expect(res.code).toBe(2);
    expect(res.stderr).toEqual([`not found: ${argv[2]}`]);
  });
});

describe('the built CLI as its own process', () => {
  it('prints exactly one JSON object on stdout with --json, and exits 0', () => {
    const res = builtCli(['tenant:create', '--name', 'Spawned', '--json']);
    expect(res.code).toBe(0);
    expect(res.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(res.stdout)).toEqual({ tenantId: expect.stringMatching(/^tenant_/) });
  });

  it('exits 2 for bad input and 1 when the database cannot be reached', () => {
    expect(builtCli(['tenant:create']).code).toBe(2);
    const res = builtCli(['tenant:create', '--name', 'x'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nothing' });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^failed: /m);
  });
});
