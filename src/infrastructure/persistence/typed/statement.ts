import type { EntityManager } from '@mikro-orm/postgresql';
import type { Compilable } from 'kysely';
import { sqlQuery } from '../connection/sql-statement';

const PARAMETER = Symbol('parameter');
type Marker = { readonly [PARAMETER]: string };
const isMarker = (value: unknown): value is Marker => typeof value === 'object' && value !== null && PARAMETER in value;

/** A row as the driver gives it back: timestamps come as PostgreSQL's text (the ORM turns pg's date parsing off). */
export type Stored<Row> = { [K in keyof Row]: Row[K] extends Date ? string : Row[K] extends Date | null ? string | null : Row[K] };

/** A statement typed from the entities, compiled once, run with its arguments as a named prepared statement. */
export interface TypedStatement<Args, Row> {
  readonly text: string;
  rows(em: EntityManager, args: Args): Promise<Stored<Row>[]>;
  /** The number of rows it wrote (INSERT, UPDATE, DELETE). */
  count(em: EntityManager, args: Args): Promise<number>;
}

/**
 * Builds a statement once with Kysely typed by the entities (typed/database.ts), from named
 * arguments: `arg('id')` stands for the value given at each run. A column or table the entities
 * do not have fails the typecheck; at run time it is today's named prepared statement (sqlQuery),
 * with no builder or compiler on the path.
 */
export function typedStatement<Args extends Record<string, unknown>, Row>(
  build: (arg: <K extends keyof Args & string>(name: K) => Args[K]) => Compilable<Row>,
): TypedStatement<Args, Row> {
  const compiled = build((name) => ({ [PARAMETER]: name }) as unknown as Args[typeof name]).compile();
  const slots = compiled.parameters.map((value) => (isMarker(value) ? value[PARAMETER] : undefined));
  const values = (args: Args) => slots.map((name, i) => (name === undefined ? compiled.parameters[i] : args[name]));
  return {
    text: compiled.sql,
    rows: async (em, args) => (await sqlQuery<Stored<Row>>(em, compiled.sql, values(args))).rows,
    count: async (em, args) => (await sqlQuery(em, compiled.sql, values(args))).rowCount,
  };
}
