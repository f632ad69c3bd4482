import { SCOPE_TO_RECEIVE } from '../../../domain/api-key/receive-scopes';

const TABLE = Object.entries(SCOPE_TO_RECEIVE)
  .filter(([, scope]) => scope !== null)
  .map(([kind, scope]) => `\`${kind}\` → \`${scope}\``)
  .join(', ');

/**
 * The rule every operation that sends to a subscription's URL states in its OpenAPI description
 * (decisions.md 178), made from the one table so the two cannot differ.
 */
export const RECEIVE_SCOPES_RULE =
  `With a scoped key this also needs the read scope (or its write scope) of every event kind the subscription lists, or \`events:read\`: ${TABLE}; ` +
  'else 403 `INSUFFICIENT_SCOPE` naming the scope, and nothing is written.';
