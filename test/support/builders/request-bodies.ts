/** A valid create-brand body; tests change one thing at a time. */
export function brandBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Acme',
    preferredAppearance: 'system',
    themeLight: {
      borderColor: '#e5e7eb',
      buttonBackgroundColor: '#4F46E5',
      logo: { type: 'url', url: 'https://cdn.example.com/logo.svg' },
    },
    themeDark: { pageBackgroundColor: '#111827' },
    companyHomePage: 'https://acme.example',
    ...overrides,
  };
}

export const THEME_FIELDS = [
  'borderColor',
  'buttonBackgroundColor',
  'buttonTextColor',
  'mutedTextColor',
  'pageBackgroundColor',
  'pageForegroundColor',
  'secondaryAccentColor',
  'sectionCardHighlightColor',
  'faviconFileId',
  'faviconUrl',
  'logoFileId',
  'logoUrl',
  'logoIconFileId',
  'logoIconUrl',
];
