import { useEffect, useState } from 'preact/hooks';

interface Kind {
  name: string;
  summary: string;
  schema: unknown;
  example: unknown;
}

/**
 * Every kind of event, its payload's schema and an example, read from the API's own OpenAPI
 * document (its `webhooks` section), so the catalog is the contract's, never a copy of it.
 */
export function Catalog() {
  const [kinds, setKinds] = useState<Kind[] | null>(null);
  useEffect(() => {
    fetch('/docs-json')
      .then((r) => r.json())
      .then((doc: { webhooks?: Record<string, { post: { summary?: string; description?: string; requestBody?: { content?: Record<string, { schema?: unknown; example?: unknown; examples?: Record<string, { value: unknown }> }> } } }> }) =>
        setKinds(
          Object.entries(doc.webhooks ?? {}).map(([name, item]) => {
            const body = item.post.requestBody?.content?.['application/json'];
            const example = body?.example ?? Object.values(body?.examples ?? {})[0]?.value ?? null;
            return { name, summary: item.post.summary ?? item.post.description ?? '', schema: body?.schema ?? null, example };
          }),
        ),
      )
      .catch(() => setKinds([]));
  }, []);
  if (kinds === null) return <p aria-busy="true">Loading the catalog…</p>;
  return (
    <section aria-labelledby="catalog-title">
      <h2 id="catalog-title">Event catalog</h2>
      {kinds.map((k) => (
        <article class="card" key={k.name} aria-labelledby={`kind-${k.name}`}>
          <h3 id={`kind-${k.name}`}>{k.name}</h3>
          <p>{k.summary}</p>
          <details>
            <summary>Schema</summary>
            <pre>{JSON.stringify(k.schema, null, 2)}</pre>
          </details>
          {k.example !== null && (
            <details>
              <summary>Example</summary>
              <pre>{JSON.stringify(k.example, null, 2)}</pre>
            </details>
          )}
        </article>
      ))}
    </section>
  );
}
