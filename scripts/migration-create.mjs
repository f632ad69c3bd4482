// `npm run migration:create -- <name>`: a new migration made from MikroORM's schema diff between
// the entities (src/infrastructure/persistence/entities) and the schema every migration so far
// makes, the parts the entities leave to the migrations left out (schema-exceptions.ts), as the
// schema-drift test computes it. It applies the migrations to a scratch database of its own (on
// DATABASE_URL's server, else the local PostgreSQL), writes src/infrastructure/persistence/
// migrations/Migration<timestamp>_<name>.ts, adds it to that folder's index.ts, and drops the
// scratch database. Nothing is written when the entities and the migrations already agree.
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

const ROOT = join(import.meta.dirname, '..');
const MIGRATIONS = join(ROOT, 'src', 'infrastructure', 'persistence', 'migrations');
const name = process.argv[2];
if (!name || !/^[a-z][a-z0-9_]{2,60}$/.test(name)) {
  process.stderr.write('usage: npm run migration:create -- <name: lower case letters, digits and _, e.g. add_brand_slug>\n');
  process.exit(2);
}

const { MikroORM } = await import('@mikro-orm/postgresql');
const { createOrmConfig } = await import(join(ROOT, 'dist', 'infrastructure', 'persistence', 'connection', 'mikro-orm.config.js'));
const { migrate } = await import(join(ROOT, 'dist', 'infrastructure', 'persistence', 'migrations', 'migrate.js'));
const { schemaDrift } = await import(join(ROOT, 'dist', 'infrastructure', 'persistence', 'entities', 'schema-drift.js'));

const server = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const scratch = `landing_api_migration_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: server.toString() });
await admin.connect();
await admin.query(`CREATE DATABASE "${scratch}"`);
const url = new URL(server);
url.pathname = `/${scratch}`;
let orm;
try {
  orm = await MikroORM.init(createOrmConfig(url.toString(), 2));
  await migrate(orm);
  const statements = await schemaDrift(orm);
  if (statements.length === 0) {
    process.stdout.write('no change: the entities and the migrations already describe the same schema\n');
  } else {
    const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
    const className = `Migration${stamp}_${name}`;
    const sql = statements.map((statement) => `    this.addSql(\`${statement.replace(/[`\\$]/g, '\\$&')}\`);`).join('\n');
    writeFileSync(
      join(MIGRATIONS, `${className}.ts`),
      `import { Migration } from '@mikro-orm/migrations';\n\n/** ${name.replaceAll('_', ' ')}: made by \`npm run migration:create\` from the entities' diff; say here why. */\nexport class ${className} extends Migration {\n  override name = '${className}';\n\n  override up(): void {\n${sql}\n  }\n}\n`,
    );
    const index = join(MIGRATIONS, 'index.ts');
    const source = readFileSync(index, 'utf8')
      .replace(/(\nexport const MIGRATIONS)/, `\nimport { ${className} } from './${className}';$1`)
      .replace(/\n\];\s*$/, `\n  { name: '${className}', class: ${className} },\n];\n`);
    writeFileSync(index, source);
    process.stdout.write(`wrote src/infrastructure/persistence/migrations/${className}.ts (${statements.length} statements) and added it to index.ts:\n`);
    for (const statement of statements) process.stdout.write(`  ${statement}\n`);
  }
} finally {
  await orm?.close(true);
  await admin.query(`DROP DATABASE IF EXISTS "${scratch}" WITH (FORCE)`);
  await admin.end();
}
