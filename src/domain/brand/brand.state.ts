import { Theme } from './theme';

export const APPEARANCES = ['system', 'light', 'dark'] as const;
export type Appearance = (typeof APPEARANCES)[number];

/** What a brand is made of: what is stored, and what its view (brand.view.ts) is made from. */
export interface BrandState {
  readonly id: string;
  readonly tenantId: string;
  readonly name: string;
  readonly preferredAppearance: Appearance;
  readonly themeLight: Theme;
  readonly themeDark: Theme;
  readonly companyHomePage: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}
