/**
 * How a table of the history kept by day is partitioned: by range of a TypeID column, its days'
 * partitions and the one before them made at run time (schema-exceptions.ts), so only the fixed
 * partition past every id (`<table>_beyond`, from `<prefix>_8`) is mapped.
 */
export function partitionedByDay(table: string, column: string, prefix: string) {
  return { type: 'range' as const, expression: column, partitions: [{ name: `${table}_beyond`, values: `from ('${prefix}_8') to (maxvalue)` }] };
}
