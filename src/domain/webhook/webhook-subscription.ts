import { EVENT_TYPES, EventType, isEventType } from '../events/event-catalogue';
import { InvalidValueError } from '../shared/domain-error';
import { isHttpUrl } from '../shared/rules';
import { newTypeId } from '../shared/type-id';
import { movedForward } from '../shared/clock';

export interface NewWebhookSubscription {
  tenantId: string;
  url: string;
  events: string[];
  active?: boolean;
}

export interface WebhookSubscriptionChanges {
  url?: string;
  events?: string[];
  active?: boolean;
}

/**
 * A tenant's registration of a callback URL for some event kinds. The signing secret is made
 * once, at creation (decisions.md, Webhooks); deactivating stops deliveries and reactivating
 * does not replay what was missed.
 */
export class WebhookSubscription {
  private constructor(
    public id: string,
    public tenantId: string,
    public url: string,
    public events: EventType[],
    public active: boolean,
    public signingSecret: string,
    public createdAt: Date,
    public updatedAt: Date,
    public deletedAt: Date | null,
  ) {}

  static create(input: NewWebhookSubscription, signingSecret: string, now: Date): WebhookSubscription {
    return new WebhookSubscription(
      newTypeId('whsub', now.getTime()),
      input.tenantId,
      checkUrl(input.url),
      checkEvents(input.events),
      input.active ?? true,
      signingSecret,
      now,
      now,
      null,
    );
  }

  /** Restores a stored subscription (the repository decrypts the secret first). */
  static restore(state: Omit<WebhookSubscription, 'update' | 'delete' | 'wants' | 'isDeleted'>): WebhookSubscription {
    return new WebhookSubscription(state.id, state.tenantId, state.url, state.events, state.active, state.signingSecret, state.createdAt, state.updatedAt, state.deletedAt);
  }

  update(changes: WebhookSubscriptionChanges, now: Date): void {
    const url = changes.url === undefined ? this.url : checkUrl(changes.url);
    const events = changes.events === undefined ? this.events : checkEvents(changes.events);
    this.url = url;
    this.events = events;
    if (changes.active !== undefined) this.active = changes.active;
    this.updatedAt = movedForward(this.updatedAt, now);
  }

  delete(now: Date): void {
    this.deletedAt ??= now;
    this.active = false;
  }

  isDeleted(): boolean {
    return this.deletedAt !== null;
  }

  /** Whether an event of this kind should be delivered here. */
  wants(type: string): boolean {
    return this.active && !this.isDeleted() && this.events.includes(type as EventType);
  }
}

function checkUrl(url: string): string {
  if (!isHttpUrl(url)) throw new InvalidValueError('url', 'must be an absolute http or https URL of at most 2048 characters');
  return url;
}

function checkEvents(events: string[]): EventType[] {
  if (!Array.isArray(events) || events.length === 0) throw new InvalidValueError('events', 'must be a non-empty array of event kinds');
  events.forEach((event, i) => {
    if (!isEventType(event)) throw new InvalidValueError(`events[${i}]`, `must be one of: ${EVENT_TYPES.join(', ')}`);
    if (events.indexOf(event) !== i) throw new InvalidValueError(`events[${i}]`, 'is a duplicate');
  });
  return [...events] as EventType[];
}
