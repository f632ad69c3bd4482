import { useState } from 'preact/hooks';
import type { Api, Capability, Schemas } from './api';
import { Catalog } from './catalog';
import { Deliveries, DeliveryQuery } from './deliveries';
import { when } from './format';
import { Subscriptions } from './subscriptions';

type View = 'subscriptions' | 'deliveries' | 'catalog';

/** The page once its session is open: three sections, the actions its capabilities allow. */
export function App({ api, session }: { api: Api; session: Schemas['PortalSessionResponse'] }) {
  const [view, setView] = useState<View>('subscriptions');
  const [query, setQuery] = useState<DeliveryQuery>({});
  const can = (capability: Capability) => session.capabilities.includes(capability);
  const readOnly = session.capabilities.length === 1;
  const showDeliveries = (next: DeliveryQuery) => {
    setQuery(next);
    setView('deliveries');
  };
  const tab = (name: View, label: string) => (
    <li>
      <button type="button" aria-current={view === name ? 'page' : undefined} onClick={() => setView(name)}>
        {label}
      </button>
    </li>
  );
  return (
    <>
      <header class="top">
        <h1>Webhooks</h1>
        <p class="session">
          {readOnly && <span class="badge">Read only</span>} Session open until {when(session.expiresAt)}
        </p>
        <nav aria-label="Sections">
          <ul>
            {tab('subscriptions', 'Subscriptions')}
            {tab('deliveries', 'Deliveries')}
            {tab('catalog', 'Event catalog')}
          </ul>
        </nav>
      </header>
      <main>
        {view === 'subscriptions' && <Subscriptions api={api} can={can} showDeliveries={showDeliveries} />}
        {view === 'deliveries' && <Deliveries api={api} can={can} query={query} setQuery={setQuery} />}
        {view === 'catalog' && <Catalog />}
      </main>
    </>
  );
}
