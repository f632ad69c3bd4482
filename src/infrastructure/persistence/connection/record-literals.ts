// Many rows as one parameter that is an array of a composite type: `{"(f1,f2,…)","(…)"}`, read
// with `unnest($1::the_type[])`. For the drain's record of attempts, whose rows PostgreSQL parsed
// as JSON in about a tenth of the statement: json_to_recordset builds a hash of each object's
// keys, where a composite's fields are read in order (40 rows: 1.00–1.04 ms a record against
// 1.09–1.18 as JSON, decisions.md 158). Encoding in JavaScript costs about what JSON.stringify
// does. A field is written for the row (quoted, `"` and `\` escaped), and the row for the array
// (the same escapes again); a text with neither is written in one step. Times travel as epoch
// milliseconds (json-rows.ts).

const SPECIAL = /["\\]/;
const ESCAPED = /["\\]/g;

/** A text field of a row element; null is an empty field (NULL), an empty text a quoted one. */
export function textField(value: string | null): string {
  if (value === null) return '';
  if (!SPECIAL.test(value)) return `\\"${value}\\"`;
  return `"${value.replace(ESCAPED, '\\$&')}"`.replace(ESCAPED, '\\$&');
}

/** A number field of a row element (finite only); null is an empty field. */
export function numberField(value: number | null): string {
  if (value === null) return '';
  if (!Number.isFinite(value)) throw new RangeError('a row field must be a finite number');
  return String(value);
}

/** The array literal of row elements, each its fields already written (textField, numberField), comma-separated. */
export function rowsLiteral(rows: readonly string[]): string {
  return `{${rows.map((fields) => `"(${fields})"`).join(',')}}`;
}
