import { useEffect, useState } from 'preact/hooks';
import type { paths } from '../../../client/schema';
import { Api, Capability, messageOf, Schemas } from './api';
import { DeliveryDetail } from './delivery-detail';
import { when } from './format';

type Delivery = Schemas['WebhookDeliveryResponse'];
/** The search's event types, as the contract lists them (a kind it does not know fails the typecheck). */
type EventType = NonNullable<NonNullable<paths['/v0/webhook_deliveries']['get']['parameters']['query']>['eventType']>;
/** What the delivery log is narrowed by. */
export interface DeliveryQuery {
  status?: Delivery['status'];
  eventType?: EventType;
  subscriptionId?: string;
}

const STATUSES: Delivery['status'][] = ['pending', 'waiting', 'delivered', 'failed', 'cancelled'];
const KINDS: EventType[] = ['page.version.created', 'brand.created', 'brand.updated', 'webhook_subscription.failing', 'webhook_subscription.recovered', 'webhook_subscription.disabled', 'webhook.test'];

/** One filter of the log: any (empty) or one of `options`. */
function FilterSelect({ label, name, value, options, onChange }: { label: string; name: string; value: string | undefined; options: readonly string[]; onChange: (event: Event) => void }) {
  return (
    <label>
      {label}
      <select name={name} value={value ?? ''} onChange={onChange}>
        <option value="">any</option>
        {options.map((option) => (
          <option value={option}>{option}</option>
        ))}
      </select>
    </label>
  );
}

/** The delivery log across the session's subscriptions: filters, newest first, one delivery opened. */
export function Deliveries({ api, can, query, setQuery }: { api: Api; can: (c: Capability) => boolean; query: DeliveryQuery; setQuery: (q: DeliveryQuery) => void }) {
  const [items, setItems] = useState<Delivery[] | null>(null);
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const load = async (after?: string) => {
    const { data, error: failed } = await api.GET('/v0/webhook_deliveries', {
      params: { query: { ...query, limit: 50, ...(after && { cursor: after }) } },
    });
    if (failed) return setError(messageOf(failed));
    setError(null);
    setItems(after ? [...(items ?? []), ...data.items] : data.items);
    setCursor(data.nextCursor);
  };
  useEffect(() => {
    setItems(null);
    void load();
  }, [query.status, query.eventType, query.subscriptionId]);
  const pick = (field: keyof DeliveryQuery) => (event: Event) => {
    const value = (event.target as HTMLSelectElement).value;
    setQuery({ ...query, [field]: value === '' ? undefined : value });
  };
  return (
    <section aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Deliveries</h2>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <FilterSelect label="Status" name="status" value={query.status} options={STATUSES} onChange={pick('status')} />
        <FilterSelect label="Event type" name="eventType" value={query.eventType} options={KINDS} onChange={pick('eventType')} />
        {query.subscriptionId && (
          <p>
            Subscription <code>{query.subscriptionId}</code>{' '}
            <button type="button" onClick={() => setQuery({ ...query, subscriptionId: undefined })}>
              Show every subscription
            </button>
          </p>
        )}
      </form>
      {error && <p role="alert">{error}</p>}
      {items === null && !error && <p aria-busy="true">Loading deliveries…</p>}
      {items !== null && items.length === 0 && <p>No deliveries match.</p>}
      {items !== null && items.length > 0 && (
        <table class="deliveries">
          <caption class="visually-hidden">Deliveries, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Made</th>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Last answer</th>
              <th scope="col">
                <span class="visually-hidden">Open</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((d) => (
              <tr key={d.id} data-delivery={d.id} data-status={d.status}>
                <td>{when(d.createdAt)}</td>
                <td>{d.eventType}</td>
                <td>{d.status}</td>
                <td>{d.attemptCount}</td>
                <td>{d.lastStatusCode ?? '—'}</td>
                <td>
                  <button type="button" aria-label={`Open delivery ${d.id}`} onClick={() => setOpen(d.id)}>
                    Open
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {cursor && (
        <button type="button" onClick={() => load(cursor)}>
          More
        </button>
      )}
      {open && <DeliveryDetail api={api} id={open} canRetry={can('deliveries:retry')} onOpen={setOpen} />}
    </section>
  );
}
