import { p } from '@mikro-orm/postgresql';

// The column kinds every table repeats, as the migrations made them, so that each entity says
// only what is its own.

/** A text key in the C collation: for a TypeID, byte order is time order. */
export const textKey = () => p.text().primary().collation('C');

/** A reference to another table's TypeID: no cascade on update or delete (rows are soft-deleted). */
export const reference = <Target extends Parameters<typeof p.manyToOne>[0]>(target: Target) =>
  p.manyToOne(target).updateRule('no action').deleteRule('no action').collation('C');

/** A point in time, to the millisecond (what the API shows). */
export const instant = () => p.datetime().length(3);

/** A text column's length check, named as PostgreSQL named it (`<table>_<column>_check`). */
export function lengthCheck(table: string, column: string, min: number, max: number): { name: string; expression: string } {
  return { name: `${table}_${column}_check`, expression: `(char_length(${column}) >= ${min}) AND (char_length(${column}) <= ${max})` };
}
