import type { EntityManager } from '@mikro-orm/postgresql';
import { type Compilable, type RawBuilder, type Selectable, sql } from 'kysely';
import { sqlQuery } from '../connection/sql-statement';
import type { Database } from './database';

const PARAMETER = Symbol('parameter');
type Marker = { readonly [PARAMETER]: string };
const isMarker = (value: unknown): value is Marker => typeof value === 'object' && value !== null && PARAMETER in value;

/** A row as the driver gives it back: timestamps and bigints come as PostgreSQL's text (the ORM turns pg's date parsing off). */
export type Stored<Row> = {
  [K in keyof Row]: Row[K] extends Date | bigint ? string : Row[K] extends Date | bigint | null ? string | null : Row[K];
};

/**
 * Some columns of a table as a statement of SQL text reads them back, typed from the entities: the
 * row type of a statement Kysely cannot build (decisions.md 184) is never written by hand.
 */
export type StoredColumns<T extends keyof Database, C extends keyof Selectable<Database[T]>> = Stored<Pick<Selectable<Database[T]>, C>>;

/** A statement typed from the entities, compiled once, run with its arguments as a named prepared statement. */
export interface TypedStatement<Args, Row> {
  readonly text: string;
  rows(em: EntityManager, args: Args): Promise<Stored<Row>[]>;
  /** The number of rows it wrote (INSERT, UPDATE, DELETE). */
  count(em: EntityManager, args: Args): Promise<number>;
  /** Its parameters' values for these arguments, in the order of the text's $1, $2… (for EXPLAIN in tests). */
  values(args: Args): unknown[];
}

/** What a statement's builder is given: `arg('id')` stands for the value of `id` at each run. */
export type Arg<Args> = <K extends keyof Args & string>(name: K) => Args[K];

/**
 * Builds a statement once with Kysely typed by the entities (typed/database.ts), from named
 * arguments: `typedStatement<{ id: string }>()((arg) => schema.selectFrom(…).where('id', '=', arg('id')))`.
 * The arguments may be an aggregate itself (`typedStatement<Pick<Template, 'id' | 'name'>>()`): each
 * is read from it by name at the run.
 * Its row type is what the builder selects or returns, so a column or table the entities do not
 * have fails the typecheck, and so does a row field read that the statement does not select. At
 * run time it is today's named prepared statement (sqlQuery), with no builder or compiler on the
 * path. (Two calls because TypeScript infers the row only when the arguments' type is not given
 * in the same call.)
 */
export function typedStatement<Args extends object = Record<string, never>>() {
  return <Row>(build: (arg: Arg<Args>) => Compilable<Row>): TypedStatement<Args, Row> => {
    const compiled = build((name) => ({ [PARAMETER]: name }) as unknown as Args[typeof name]).compile();
    const slots = compiled.parameters.map((value) => (isMarker(value) ? value[PARAMETER] : undefined));
    const values = (args: Args) => slots.map((name, i) => (name === undefined ? compiled.parameters[i] : (args as Record<string, unknown>)[name]));
    return {
      text: compiled.sql,
      rows: async (em, args) => (await sqlQuery<Stored<Row>>(em, compiled.sql, values(args))).rows,
      count: async (em, args) => (await sqlQuery(em, compiled.sql, values(args))).rowCount,
      values,
    };
  };
}

/**
 * Statements with optional parts (a filter given or not, FOR UPDATE or not): one statement per
 * variant, each built on its first use and kept, so every variant is still one fixed text.
 */
export function statementVariants<Key extends string, S>(build: (key: Key) => S): (key: Key) => S {
  const built = new Map<Key, S>();
  return (key) => {
    let statement = built.get(key);
    if (statement === undefined) built.set(key, (statement = build(key)));
    return statement;
  };
}

/** The row a typed statement gives back, for the function that maps it. */
export type RowOf<S> = S extends TypedStatement<never, infer Row> ? Stored<Row> : never;

/**
 * A value given as the text PostgreSQL reads it as (a JSON document, a bigint beyond 2^53): the
 * column's type for the typecheck, the text on the wire. node-postgres would send a JS array as a
 * PostgreSQL array, not as JSON, so JSON columns take the document's text.
 */
export function asText<T>(text: string): RawBuilder<T> {
  return sql<T>`${text}`;
}
