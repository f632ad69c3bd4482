import { Appearance, Brand } from '../../domain/brand/brand';
import { Theme } from '../../domain/brand/theme';

/** Brand (response) of the spec, field for field; `companyHomePage` is omitted when unset. */
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
    themeLight: brand.themeLight,
    themeDark: brand.themeDark,
    ...(brand.companyHomePage !== null && { companyHomePage: brand.companyHomePage }),
    createdAt: brand.createdAt.toISOString(),
    updatedAt: brand.updatedAt.toISOString(),
  };
}
