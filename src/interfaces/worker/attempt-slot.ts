/**
 * One attempt's slot. Called, it ends the attempt's hold on every cap. `requestEnded` hands back
 * the endpoint's part as soon as the receiver has answered (or the request failed): the endpoint's
 * cap protects the receiver, and what follows (the record, the health update) does not load it.
 * The worker's and the tenant's parts are held to the end, so that attempts sent but not yet
 * recorded stay bounded when PostgreSQL is slow or cut.
 */
export interface AttemptSlot {
  (): void;
  requestEnded(): void;
}
