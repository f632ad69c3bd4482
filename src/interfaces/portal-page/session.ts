// Opening the page: the link token is in the URL's fragment (never sent to a server); it is
// exchanged once for a session token, kept in this tab's sessionStorage, and the fragment is
// dropped from the address bar and history. The session's id is in the URL's query, so that the
// server can send the page with that session's frame-ancestors; the page checks that the token
// it was given belongs to that session.
import createClient from 'openapi-fetch';
import type { paths } from '../../../client/schema';
import { Ended, reasonOf, Schemas } from './api';

export type Opened = { token: string; session: Schemas['PortalSessionResponse'] } | { ended: Ended };

const storageKey = (sessionId: string) => `portal-session:${sessionId}`;

export async function openSession(): Promise<Opened> {
  const sessionId = new URLSearchParams(location.search).get('session') ?? '';
  const link = new URLSearchParams(location.hash.slice(1)).get('token');
  if (link !== null) history.replaceState(null, '', `${location.pathname}${location.search}`);
  const api = createClient<paths>({ baseUrl: location.origin });
  if (link !== null) {
    const { data, error } = await api.POST('/v0/portal_sessions/exchange', { body: { linkToken: link } });
    if (!data) return { ended: reasonOf(error) };
    if (data.session.id !== sessionId) return { ended: 'unknown' };
    sessionStorage.setItem(storageKey(sessionId), data.sessionToken);
    return { token: data.sessionToken, session: data.session };
  }
  const token = sessionId ? sessionStorage.getItem(storageKey(sessionId)) : null;
  if (token === null) return { ended: 'unknown' };
  const { data, error } = await api.GET('/v0/portal_sessions/current', { headers: { authorization: `Bearer ${token}` } });
  if (!data) return { ended: reasonOf(error) };
  if (data.id !== sessionId) return { ended: 'unknown' };
  return { token, session: data };
}
