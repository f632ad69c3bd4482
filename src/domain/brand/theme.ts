import { InvalidValueError } from '../shared/domain-error';
import { isCssHexColour, isHttpUrl } from '../shared/rules';

export const THEME_COLOUR_FIELDS = [
  'borderColor',
  'buttonBackgroundColor',
  'buttonTextColor',
  'mutedTextColor',
  'pageBackgroundColor',
  'pageForegroundColor',
  'secondaryAccentColor',
  'sectionCardHighlightColor',
] as const;
export type ThemeColourField = (typeof THEME_COLOUR_FIELDS)[number];

export const THEME_IMAGE_FIELDS = ['favicon', 'logo', 'logoIcon'] as const;
export type ThemeImageField = (typeof THEME_IMAGE_FIELDS)[number];

/** Allowed `type` values of an image reference (decisions.md: only `url` for now). */
export const IMAGE_REFERENCE_TYPES = ['url'] as const;
export interface ImageReference {
  type: (typeof IMAGE_REFERENCE_TYPES)[number];
  url: string;
}

/** The stored and returned theme: the spec's 14 flat fields, null when unset. */
export interface Theme {
  borderColor: string | null;
  buttonBackgroundColor: string | null;
  buttonTextColor: string | null;
  mutedTextColor: string | null;
  pageBackgroundColor: string | null;
  pageForegroundColor: string | null;
  secondaryAccentColor: string | null;
  sectionCardHighlightColor: string | null;
  faviconFileId: string | null;
  faviconUrl: string | null;
  logoFileId: string | null;
  logoUrl: string | null;
  logoIconFileId: string | null;
  logoIconUrl: string | null;
}

/**
 * A theme as a request states it: absent keeps, null clears, a value replaces (JSON merge patch,
 * RFC 7396). On create the same shape applies to an empty theme.
 */
export type ThemeChanges = Partial<Record<ThemeColourField, string | null>> &
  Partial<Record<ThemeImageField, ImageReference | null>>;

export const EMPTY_THEME: Readonly<Theme> = Object.freeze({
  borderColor: null,
  buttonBackgroundColor: null,
  buttonTextColor: null,
  mutedTextColor: null,
  pageBackgroundColor: null,
  pageForegroundColor: null,
  secondaryAccentColor: null,
  sectionCardHighlightColor: null,
  faviconFileId: null,
  faviconUrl: null,
  logoFileId: null,
  logoUrl: null,
  logoIconFileId: null,
  logoIconUrl: null,
});

/** Applies `changes` to `theme`; `path` names the theme in errors (`themeLight`). */
export function applyThemeChanges(theme: Theme, changes: ThemeChanges, path: string): Theme {
  const next: Theme = { ...theme };
  for (const field of THEME_COLOUR_FIELDS) {
    const value = changes[field];
    if (value === undefined) continue;
    if (value !== null && !isCssHexColour(value)) {
      throw new InvalidValueError(`${path}.${field}`, 'must be a CSS hex colour (#rgb, #rgba, #rrggbb or #rrggbbaa)');
    }
    next[field] = value;
  }
  for (const field of THEME_IMAGE_FIELDS) {
    const value = changes[field];
    if (value === undefined) continue;
    if (value !== null) {
      if (!IMAGE_REFERENCE_TYPES.includes(value.type)) {
        throw new InvalidValueError(`${path}.${field}.type`, `must be one of: ${IMAGE_REFERENCE_TYPES.join(', ')}`);
      }
      if (!isHttpUrl(value.url)) {
        throw new InvalidValueError(`${path}.${field}.url`, 'must be an absolute http(s) URL of at most 2048 characters');
      }
    }
    // An image given by URL fills `…Url`; `…FileId` is for platform uploads and is cleared.
    next[`${field}Url`] = value === null ? null : value.url;
    next[`${field}FileId`] = null;
  }
  return next;
}

/** The 14 fields in the spec's order, null where `stored` lacks one (e.g. a JSONB column). */
export function completeTheme(stored: Partial<Theme>): Theme {
  const theme = { ...EMPTY_THEME };
  for (const key of Object.keys(EMPTY_THEME) as (keyof Theme)[]) theme[key] = stored[key] ?? null;
  return theme;
}
