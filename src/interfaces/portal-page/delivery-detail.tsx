import { useEffect, useState } from 'preact/hooks';
import { Api, messageOf, Schemas } from './api';
import { when } from './format';

type Detail = Schemas['WebhookDeliveryDetailResponse'];

/**
 * One delivery with its attempts, what each sent and what came back, and a retry (a redelivery:
 * one attempt now, its own delivery). While a delivery is not final the page looks again every
 * 2 seconds, so a retry's attempt shows up by itself.
 */
export function DeliveryDetail({ api, id, canRetry, onOpen }: { api: Api; id: string; canRetry: boolean; onOpen: (id: string) => void }) {
  const [detail, setDetail] = useState<Detail | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const look = async () => {
      const { data } = await api.GET('/v0/webhook_deliveries/{delivery_id}', { params: { path: { delivery_id: id } } });
      if (stopped || !data) return;
      setDetail(data);
      if (data.status === 'pending' || data.status === 'sending' || data.status === 'waiting') timer = setTimeout(look, 2000);
    };
    setDetail(null);
    void look();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [id]);
  if (detail === null) return <p aria-busy="true">Loading the delivery…</p>;
  const retry = async () => {
    const { data, error } = await api.POST('/v0/webhook_subscriptions/{subscription_id}/deliveries/{delivery_id}/redeliver', {
      params: { path: { subscription_id: detail.subscriptionId, delivery_id: detail.id } },
    });
    if (error) return setSaid(`Retry refused: ${messageOf(error)}`);
    setSaid(`Retrying as delivery ${data.deliveryId}.`);
    onOpen(data.deliveryId);
  };
  return (
    <section class="detail" aria-labelledby="detail-title" data-detail={detail.id}>
      <h3 id="detail-title">Delivery {detail.id}</h3>
      <dl class="facts">
        <dt>Event</dt>
        <dd>
          {detail.eventType} <code>{detail.eventId}</code>
        </dd>
        <dt>Status</dt>
        <dd data-status={detail.status}>{detail.status}</dd>
        {detail.redeliveryOf && (
          <>
            <dt>Sends again</dt>
            <dd>
              <code>{detail.redeliveryOf}</code>
            </dd>
          </>
        )}
        <dt>Next attempt</dt>
        <dd>{when(detail.nextAttemptAt)}</dd>
      </dl>
      {canRetry && (
        <button type="button" onClick={retry}>
          Retry
        </button>
      )}
      {said && <p role="status">{said}</p>}
      <ol class="attempts">
        {detail.attempts.map((a) => (
          <li key={a.id} data-attempt={a.attemptNumber}>
            <h4>
              Attempt {a.attemptNumber}: {a.statusCode ?? a.errorKind} {a.errorKind && a.statusCode !== null ? `(${a.errorKind})` : ''}
            </h4>
            <p>
              Sent {when(a.sentAt)}, answered in {a.durationMs} ms{a.error ? `: ${a.error}` : ''}.
              {a.nextAttemptAt && ` Next attempt ${when(a.nextAttemptAt)}.`}
            </p>
            {a.responseExcerpt !== null && (
              <>
                <p>The receiver answered:</p>
                <pre class="excerpt">{a.responseExcerpt}</pre>
              </>
            )}
            {a.request && (
              <details>
                <summary>Request headers</summary>
                <pre>{Object.entries(a.request.headers).map(([name, value]) => `${name}: ${value}\n`)}</pre>
                <p>Not shown: {a.request.omittedHeaders.join(', ')}.</p>
              </details>
            )}
          </li>
        ))}
      </ol>
      {detail.attempts.length === 0 && <p>No attempt yet.</p>}
    </section>
  );
}
