/**
 * A view that its store already holds as JSON, answered as those bytes. Parsing it into objects
 * only to serialise the same JSON again costs a parse and a stringify on every request of a hot
 * read (docs/performance-analysis.md). `T` names what the text is the JSON of, for the reader.
 */
export class JsonText<T> {
  declare private readonly of?: T;

  constructor(readonly text: string) {}
}

/**
 * The JSON text of a value that is not changed after it is made (a view), made once: a write
 * that stores, publishes and answers the same view serialises it once. Kept as long as the value.
 */
const texts = new WeakMap<object, string>();
export function jsonOf(value: object): string {
  let text = texts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    texts.set(value, text);
  }
  return text;
}
