/**
 * A view that its store already holds as JSON, answered as those bytes. Parsing it into objects
 * only to serialise the same JSON again costs a parse and a stringify on every request of a hot
 * read (docs/performance-analysis.md). `T` names what the text is the JSON of, for the reader.
 */
export class JsonText<T> {
  declare private readonly of?: T;

  constructor(readonly text: string) {}
}
