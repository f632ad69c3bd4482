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

/**
 * A write renders the view of one brand state several times (the event's data, the stored JSON,
 * the answer): the last rendering of each brand is kept and given again while every field it was
 * made from is the same value (fields are replaced on a change, never mutated). Callers must not
 * change the view they get.
 */
const rendered = new WeakMap<BrandState, { from: readonly unknown[]; view: BrandView }>();

export function toBrandView(brand: BrandState): BrandView {
  const from = [brand.id, brand.name, brand.preferredAppearance, brand.tenantId, brand.themeLight, brand.themeDark, brand.companyHomePage, brand.createdAt, brand.updatedAt];
  const kept = rendered.get(brand);
  if (kept && kept.from.every((value, i) => value === from[i])) return kept.view;
  const view = renderBrandView(brand);
  rendered.set(brand, { from, view });
  return view;
}

function renderBrandView(brand: BrandState): BrandView {
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
