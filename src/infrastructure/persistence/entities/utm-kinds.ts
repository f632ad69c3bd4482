/** The five UTM parameters, as both UTM value tables' `kind` column holds them (a check constraint). */
export const UTM_KINDS = {
  CAMPAIGN: 'campaign',
  CONTENT: 'content',
  MEDIUM: 'medium',
  SOURCE: 'source',
  TERM: 'term',
} as const;

export type UtmKind = (typeof UTM_KINDS)[keyof typeof UTM_KINDS];
