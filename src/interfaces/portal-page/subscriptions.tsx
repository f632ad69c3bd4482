import { useEffect, useState } from 'preact/hooks';
import { Api, Capability, messageOf, Schemas } from './api';
import { MetricsChart } from './chart';
import type { DeliveryQuery } from './deliveries';
import { percent, when } from './format';

type Subscription = Schemas['WebhookSubscriptionResponse'];

/** The session's subscriptions, each with its health, pace, a day's chart and what may be done to it. */
export function Subscriptions({ api, can, showDeliveries }: { api: Api; can: (c: Capability) => boolean; showDeliveries: (q: DeliveryQuery) => void }) {
  const [items, setItems] = useState<Subscription[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = async () => {
    const { data, error: failed } = await api.GET('/v0/webhook_subscriptions', { params: { query: { limit: 100 } } });
    if (failed) setError(messageOf(failed));
    else setItems(data.items);
  };
  useEffect(() => void load(), []);
  if (error) return <p role="alert">{error}</p>;
  if (items === null) return <p aria-busy="true">Loading subscriptions…</p>;
  if (items.length === 0) return <p>No subscriptions yet.</p>;
  return (
    <section aria-labelledby="subscriptions-title">
      <h2 id="subscriptions-title">Subscriptions</h2>
      {items.map((s) => (
        <SubscriptionCard key={s.id} api={api} can={can} subscription={s} reload={load} showDeliveries={showDeliveries} />
      ))}
    </section>
  );
}

function SubscriptionCard({ api, can, subscription: s, reload, showDeliveries }: { api: Api; can: (c: Capability) => boolean; subscription: Subscription; reload: () => void; showDeliveries: (q: DeliveryQuery) => void }) {
  const [metrics, setMetrics] = useState<Schemas['SubscriptionMetricsResponse'] | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  useEffect(() => {
    api.GET('/v0/webhook_subscriptions/{subscription_id}/metrics', { params: { path: { subscription_id: s.id }, query: { window: '24h' } } }).then(({ data }) => data && setMetrics(data));
  }, [s.id]);
  const path = { params: { path: { subscription_id: s.id } } };
  const act = async (what: string, run: () => Promise<{ error?: unknown; data?: unknown }>, then?: (data: any) => string) => {
    const { data, error } = await run();
    setSaid(error ? `${what} refused: ${messageOf(error)}` : (then?.(data) ?? `${what}: done.`));
  };
  return (
    <article class="card" aria-labelledby={`sub-${s.id}`} data-subscription={s.id}>
      <h3 id={`sub-${s.id}`}>{s.url}</h3>
      <dl class="facts">
        <dt>Health</dt>
        <dd data-health={s.health.state}>
          {s.health.state}
          {s.health.consecutiveFailures > 0 && ` (${s.health.consecutiveFailures} failed in a row)`}
        </dd>
        <dt>Breaker</dt>
        <dd data-breaker={s.health.breaker}>
          {s.health.breaker === 'open' ? `open: deliveries held, next probe ${when(s.health.nextProbeAt)}` : 'closed'}
        </dd>
        <dt>Active</dt>
        <dd>{s.active ? 'yes' : `no${s.health.disabledReason ? ` (${s.health.disabledReason})` : ''}`}</dd>
        <dt>Pace</dt>
        <dd>{s.rateLimitPerSecond === null ? 'as fast as it answers' : `at most ${s.rateLimitPerSecond} a second`}</dd>
        <dt>Last 24 hours</dt>
        <dd>{metrics ? `${metrics.total.attempts} ${metrics.total.attempts === 1 ? 'attempt' : 'attempts'}, ${percent(metrics.total.successRate)} succeeded, p95 ${metrics.total.latencyMs?.p95 ?? '—'} ms` : '…'}</dd>
        <dt>Last success</dt>
        <dd>{when(s.health.lastSuccessAt)}</dd>
      </dl>
      {metrics && <MetricsChart metrics={metrics} label={`Success rate and p95 latency by hour for ${s.url}`} />}
      <div class="actions">
        <button type="button" onClick={() => showDeliveries({ subscriptionId: s.id, status: 'failed' })}>
          Failed deliveries
        </button>
        <button type="button" onClick={() => showDeliveries({ subscriptionId: s.id })}>
          All deliveries
        </button>
        {can('events:test') && (
          <button type="button" onClick={() => act('Test event', () => api.POST('/v0/webhook_subscriptions/{subscription_id}/test', path), (d) => `Test event sent: delivery ${d.deliveryId}.`)}>
            Send test event
          </button>
        )}
        {can('secrets:rotate') && (
          <button
            type="button"
            onClick={() =>
              act('Rotate secret', () => api.POST('/v0/webhook_subscriptions/{subscription_id}/rotate_secret', { ...path, body: { expiresInSeconds: 86_400 } }), (d) => `New signing secret (shown once): ${d.signingSecret}`)
            }
          >
            Rotate secret
          </button>
        )}
        {can('subscriptions:manage') && (
          <button type="button" aria-expanded={editing} onClick={() => setEditing(!editing)}>
            Edit
          </button>
        )}
      </div>
      {can('deliveries:retry') && <RecoverForm api={api} id={s.id} onDone={setSaid} />}
      {editing && <EditForm api={api} subscription={s} onDone={(text) => (setSaid(text), setEditing(false), reload())} />}
      {said && (
        <p class="said" role="status">
          {said}
        </p>
      )}
    </article>
  );
}

function RecoverForm({ api, id, onDone }: { api: Api; id: string; onDone: (text: string) => void }) {
  const [since, setSince] = useState(() => new Date(Date.now() - 3_600_000).toISOString().slice(0, 16));
  const submit = async (event: Event) => {
    event.preventDefault();
    const { data, error } = await api.POST('/v0/webhook_subscriptions/{subscription_id}/recover', {
      params: { path: { subscription_id: id } },
      body: { since: new Date(since).toISOString() },
    });
    onDone(error ? `Recover refused: ${messageOf(error)}` : `Recovering ${data.queued} deliveries${data.hasMore ? ' (more remain: recover again once these are sent)' : ''}.`);
  };
  return (
    <form class="inline" onSubmit={submit}>
      <label>
        Redeliver what failed since <input type="datetime-local" value={since} onInput={(e) => setSince((e.target as HTMLInputElement).value)} required />
      </label>
      <button type="submit">Recover</button>
    </form>
  );
}

function EditForm({ api, subscription: s, onDone }: { api: Api; subscription: Subscription; onDone: (text: string) => void }) {
  const [url, setUrl] = useState(s.url);
  const [active, setActive] = useState(s.active);
  const [rate, setRate] = useState(s.rateLimitPerSecond === null ? '' : String(s.rateLimitPerSecond));
  const submit = async (event: Event) => {
    event.preventDefault();
    const { error } = await api.PATCH('/v0/webhook_subscriptions/{subscription_id}', {
      params: { path: { subscription_id: s.id } },
      body: { url, active, rateLimitPerSecond: rate === '' ? null : Number(rate) },
    });
    onDone(error ? `Change refused: ${messageOf(error)}` : 'Subscription changed.');
  };
  return (
    <form class="edit" onSubmit={submit}>
      <label>
        URL <input type="url" value={url} onInput={(e) => setUrl((e.target as HTMLInputElement).value)} required />
      </label>
      <label>
        <input type="checkbox" checked={active} onChange={(e) => setActive((e.target as HTMLInputElement).checked)} /> Active
      </label>
      <label>
        Attempts a second at most (empty: no limit) <input type="number" min="1" value={rate} onInput={(e) => setRate((e.target as HTMLInputElement).value)} />
      </label>
      <button type="submit">Save</button>
    </form>
  );
}
