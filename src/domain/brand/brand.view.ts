import { Appearance, BrandState } from './brand.state';
import { completeTheme, Theme } from './theme';

/**
 * Brand (response) of the spec, field for field, in its key order; `companyHomePage` is omitted
 * when unset. The one definition of the shape: the API answers it, brand events carry it as their
 * data, and the repository stores its JSON text beside the row (`brands.view_json`) for the reads
 * to send as they are. In the domain because events publish it (decisions.md 94).
 */
export interface BrandView {
  brandId: string;
  name: string;
  preferredAppearance: Appearance;
  tenantId: string;
  themeLight: Theme;
  themeDark: Theme;
  companyHomePage?: string;
  createdAt: string;
  updatedAt: string;
}

export function toBrandView(brand: BrandState): BrandView {
  return {
    brandId: brand.id,
    name: brand.name,
    preferredAppearance: brand.preferredAppearance,
    tenantId: brand.tenantId,
    themeLight: completeTheme(brand.themeLight),
    themeDark: completeTheme(brand.themeDark),
    ...(brand.companyHomePage !== null && { companyHomePage: brand.companyHomePage }),
    createdAt: brand.createdAt.toISOString(),
    updatedAt: brand.updatedAt.toISOString(),
  };
}
