// Value rules from decisions.md (Brands, Webhooks), shared by the model and the HTTP DTOs so a
// rule is written once.

const HEX_COLOUR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
export const MAX_URL_LENGTH = 2048;

/** CSS hex colour: #rgb, #rgba, #rrggbb or #rrggbbaa. */
export function isCssHexColour(value: unknown): value is string {
  return typeof value === 'string' && HEX_COLOUR.test(value);
}

/** Absolute http(s) URL of at most 2048 characters, with a host. */
export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_URL_LENGTH) return false;
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/**
 * An ISO 8601 date-time with its offset (`Z` or `±hh:mm`): one without would be read in the
 * server's time zone, so it is refused rather than guessed. `DATE_OR_INSTANT` also takes a date
 * alone (UTC midnight). The shape only: callers check the calendar (class-validator's IsISO8601,
 * Date).
 */
export const INSTANT = /^\d{4}-\d{2}-\d{2}T[^Z+-]*(Z|[+-]\d{2}:?\d{2})$/;
export const DATE_OR_INSTANT = /^\d{4}-\d{2}-\d{2}(T[^Z+-]*(Z|[+-]\d{2}:?\d{2}))?$/;
