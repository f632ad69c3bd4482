// The page's only way to the server: the public /v0 API through the typed client generated from
// the OpenAPI document (client/schema.d.ts), with the session token as a bearer. There is no
// private API (decisions.md 186): what the page does, any REST client with the token can do.
import createClient from 'openapi-fetch';
import type { components, paths } from '../../../client/schema';

export type Schemas = components['schemas'];
/** What a portal session may do (decisions.md 186). */
export type Capability = Schemas['PortalSessionResponse']['capabilities'][number];
export type Api = ReturnType<typeof createClient<paths>>;

/** Why the session opens nothing: the API's 401 reason (expired, revoked, used, unknown). */
export type Ended = 'expired' | 'revoked' | 'used' | 'unknown';

/** The client for this session; `onEnded` is told when the API says the session stopped. */
export function portalApi(token: string, onEnded: (reason: Ended) => void): Api {
  const api = createClient<paths>({ baseUrl: location.origin, headers: { authorization: `Bearer ${token}` } });
  api.use({
    async onResponse({ response }) {
      if (response.status === 401) onEnded(await endedReason(response.clone()));
      return response;
    },
  });
  return api;
}

/** The reason in a 401's body (the API's error shape); `unknown` for any other answer. */
export function reasonOf(body: unknown): Ended {
  const reason = (body as { details?: { reason?: string } } | undefined)?.details?.reason;
  return reason === 'expired' || reason === 'revoked' || reason === 'used' ? reason : 'unknown';
}

async function endedReason(response: Response): Promise<Ended> {
  return reasonOf(await response.json().catch(() => undefined));
}

/** The API's error message for a refused request, for the page to show as it is. */
export function messageOf(error: unknown): string {
  const e = error as { message?: string; code?: string } | undefined;
  return e?.message ?? 'The request failed; try again.';
}
