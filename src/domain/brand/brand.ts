import { AggregateRoot, StateOf, restored } from '../shared/aggregate-root';
import { movedForward } from '../shared/clock.port';
import { InvalidValueError } from '../shared/domain-error';
import { isHttpUrl } from '../shared/rules';
import { newTypeId } from '../shared/type-id';
import { brandEvent } from './brand.events';
import { APPEARANCES, Appearance, BrandState } from './brand.state';
import { applyThemeChanges, EMPTY_THEME, Theme, ThemeChanges } from './theme';

export const BRAND_NAME_MAX = 200;

export interface NewBrand {
  tenantId: string;
  name: string;
  preferredAppearance: Appearance;
  themeLight: ThemeChanges;
  themeDark: ThemeChanges;
  companyHomePage?: string;
}

/** What a PATCH may change; absent keeps, `companyHomePage: null` clears. */
export interface BrandChanges {
  name?: string;
  preferredAppearance?: Appearance;
  companyHomePage?: string | null;
  themeLight?: ThemeChanges;
  themeDark?: ThemeChanges;
}

/**
 * A tenant's visual identity. Its state changes only through `create` and `update`, which hold
 * the rules and record `brand.created` and `brand.updated`.
 */
export class Brand extends AggregateRoot<StateOf<Brand>> implements BrandState {
  private constructor(
    readonly id: string,
    readonly tenantId: string,
    readonly name: string,
    readonly preferredAppearance: Appearance,
    readonly themeLight: Theme,
    readonly themeDark: Theme,
    readonly companyHomePage: string | null,
    readonly createdAt: Date,
    readonly updatedAt: Date,
  ) {
    super();
  }

  /** A stored brand, as the repository read it. */
  static restore(state: BrandState): Brand {
    return restored(Brand.prototype, state);
  }


  static create(input: NewBrand, now: Date): Brand {
    Brand.checkName(input.name);
    Brand.checkAppearance(input.preferredAppearance);
    if (input.companyHomePage !== undefined) Brand.checkHomePage(input.companyHomePage);
    const brand = new Brand(
      newTypeId('brand', now.getTime()),
      input.tenantId,
      input.name,
      input.preferredAppearance,
      applyThemeChanges(EMPTY_THEME, input.themeLight, 'themeLight'),
      applyThemeChanges(EMPTY_THEME, input.themeDark, 'themeDark'),
      input.companyHomePage ?? null,
      now,
      now,
    );
    brand.record(brandEvent('brand.created', brand));
    return brand;
  }

  /** Merge-patch update; `updatedAt` moves forward on every call, even when nothing differs. Records `brand.updated`. */
  update(changes: BrandChanges, now: Date): void {
    if (changes.name !== undefined) Brand.checkName(changes.name);
    if (changes.preferredAppearance !== undefined) Brand.checkAppearance(changes.preferredAppearance);
    if (changes.companyHomePage !== undefined && changes.companyHomePage !== null) {
      Brand.checkHomePage(changes.companyHomePage);
    }
    // Compute everything before assigning, so a rejected change leaves the brand untouched.
    const themeLight = changes.themeLight ? applyThemeChanges(this.themeLight, changes.themeLight, 'themeLight') : this.themeLight;
    const themeDark = changes.themeDark ? applyThemeChanges(this.themeDark, changes.themeDark, 'themeDark') : this.themeDark;
    this.change({
      name: changes.name ?? this.name,
      preferredAppearance: changes.preferredAppearance ?? this.preferredAppearance,
      companyHomePage: changes.companyHomePage === undefined ? this.companyHomePage : changes.companyHomePage,
      themeLight,
      themeDark,
      updatedAt: movedForward(this.updatedAt, now),
    });
    this.record(brandEvent('brand.updated', this));
  }

  private static checkName(name: unknown): void {
    if (typeof name !== 'string' || name.length < 1 || name.length > BRAND_NAME_MAX) {
      throw new InvalidValueError('name', `must be a string of 1 to ${BRAND_NAME_MAX} characters`);
    }
  }

  private static checkAppearance(value: unknown): void {
    if (!APPEARANCES.includes(value as Appearance)) {
      throw new InvalidValueError('preferredAppearance', `must be one of: ${APPEARANCES.join(', ')}`);
    }
  }

  private static checkHomePage(value: unknown): void {
    if (!isHttpUrl(value)) {
      throw new InvalidValueError('companyHomePage', 'must be an absolute http(s) URL of at most 2048 characters');
    }
  }
}
