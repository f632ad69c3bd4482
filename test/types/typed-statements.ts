// Checked by `npm run typecheck` (part of `npm test`), never run: statements built on the entities'
// types fail the typecheck when they name a column or table the schema does not have
// (decisions.md 184). Each `@ts-expect-error` below must meet its error, or the typecheck fails.
import type { EntityManager } from '@mikro-orm/postgresql';
import { schema, type Database } from '../../src/infrastructure/persistence/typed/database';
import { typedStatement } from '../../src/infrastructure/persistence/typed/statement';

export const columns = typedStatement<{ id: string }>()((arg) =>
  schema.selectFrom('tenants').select(['id', 'name', 'created_at']).where('id', '=', arg('id')),
);

export const misspelt = typedStatement<{ id: string }>()((arg) =>
  // @ts-expect-error a column the tenants table does not have
  schema.selectFrom('tenants').select(['id', 'nmae']).where('id', '=', arg('id')),
);

export const propertyName = typedStatement<{ id: string }>()((arg) =>
  // @ts-expect-error the entity's property name, not the column's
  schema.selectFrom('api_keys').select(['tenantId']).where('id', '=', arg('id')),
);

export const wrongTable = typedStatement<{ id: string }>()((arg) =>
  // @ts-expect-error a table the schema does not have
  schema.selectFrom('tenant').select(['id']).where('id', '=', arg('id')),
);

export const wrongType = typedStatement<{ id: string }>()((arg) =>
  // @ts-expect-error a timestamp column given a number
  schema.insertInto('tenants').values({ id: arg('id'), name: 'x', created_at: 42 }),
);

/** Every table of the schema is there, under its PostgreSQL name. */
export const tables: (keyof Database)[] = ['tenants', 'api_keys', 'brands', 'webhook_deliveries', 'event_feed', 'page_utm_running', 'webhook_history_holds'];

const idOnly = typedStatement<{ id: string }>()((arg) => schema.selectFrom('tenants').select('id').where('id', '=', arg('id')));

/** The row type is what the statement selects: a column of the table it does not select is not there. */
export async function unselected(em: EntityManager): Promise<unknown> {
  const [row] = await idOnly.rows(em, { id: 'tenant_x' });
  // @ts-expect-error `name` is a column of tenants, but this statement does not select it
  return row.name;
}

/** Timestamps come back as PostgreSQL's text, not as Dates. */
export async function timestampsAsText(em: EntityManager): Promise<string> {
  const [row] = await columns.rows(em, { id: 'tenant_x' });
  // @ts-expect-error created_at is text on this connection
  const asDate: Date = row.created_at;
  return `${String(asDate)} ${row.created_at}`;
}
