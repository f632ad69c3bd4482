import { Appearance, Brand } from '../../domain/brand/brand';
import { completeTheme, Theme } from '../../domain/brand/theme';

/**
 * Brand (response) of the spec, field for field, in its key order; `companyHomePage` is omitted
 * when unset. The one definition of the shape: the API answers it and the repository stores its
 * JSON text beside the row (`brands.view_json`) for the reads to send as they are.
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

export function toBrandView(brand: Brand): BrandView {
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
