import { EVENT_TYPES, EventType, isEventType } from '../events/event-catalogue';
import { InvalidValueError } from '../shared/domain-error';
import { isHttpUrl } from '../shared/rules';

// What a subscription's own fields must be; each failure names the field (the API's 400).

/** The highest rate a customer may set on a subscription (attempts per second). */
export const MAX_RATE_LIMIT_PER_SECOND = 10_000;

export function checkUrl(url: string): string {
  if (!isHttpUrl(url)) throw new InvalidValueError('url', 'must be an absolute http or https URL of at most 2048 characters');
  return url;
}

export function checkRate(rate: number | null): number | null {
  if (rate === null) return null;
  if (!Number.isInteger(rate) || rate < 1 || rate > MAX_RATE_LIMIT_PER_SECOND) {
    throw new InvalidValueError('rateLimitPerSecond', `must be an integer from 1 to ${MAX_RATE_LIMIT_PER_SECOND}, or null for no limit`);
  }
  return rate;
}

export function checkEvents(events: string[]): EventType[] {
  if (!Array.isArray(events) || events.length === 0) throw new InvalidValueError('events', 'must be a non-empty array of event kinds');
  events.forEach((event, i) => {
    if (!isEventType(event)) throw new InvalidValueError(`events[${i}]`, `must be one of: ${EVENT_TYPES.join(', ')}`);
    if (events.indexOf(event) !== i) throw new InvalidValueError(`events[${i}]`, 'is a duplicate');
  });
  return [...events] as EventType[];
}
