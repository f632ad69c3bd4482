// The webhook portal's page (docs/portal.md): opens its session, then shows the tenant's
// subscriptions, deliveries and event catalog through the public API, as far as the session's
// capabilities reach.
import { type ComponentChild, render } from 'preact';
import { useState } from 'preact/hooks';
import { Ended, portalApi } from './api';
import { App } from './app';
import { EndedPage } from './ended';
import { openSession, Opened } from './session';
import './portal.css';

function Root({ opened }: { opened: Opened }) {
  const [ended, setEnded] = useState<Ended | null>('ended' in opened ? opened.ended : null);
  const [api] = useState(() => ('token' in opened ? portalApi(opened.token, setEnded) : null));
  if (ended !== null || !('token' in opened) || api === null) return <EndedPage reason={ended ?? 'unknown'} />;
  return <App api={api} session={opened.session} />;
}

const root = document.getElementById('portal')!;
// The page's "opening…" line goes: render adds to what is there.
const show = (page: ComponentChild) => {
  root.textContent = '';
  render(page, root);
};
openSession().then(
  (opened) => show(<Root opened={opened} />),
  () => show(<EndedPage reason="unreachable" />),
);
