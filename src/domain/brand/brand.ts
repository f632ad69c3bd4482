import { InvalidValueError } from '../shared/domain-error';
import { isHttpUrl } from '../shared/rules';
import { newTypeId } from '../shared/type-id';
import { applyThemeChanges, EMPTY_THEME, Theme, ThemeChanges } from './theme';
import { movedForward } from '../shared/clock';

export const APPEARANCES = ['system', 'light', 'dark'] as const;
export type Appearance = (typeof APPEARANCES)[number];
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
 * A tenant's visual identity. Fields are public for the persistence mapping; they change only
 * through `create` and `update`, which hold the rules.
 */
export class Brand {
  private constructor(
    public id: string,
    public tenantId: string,
    public name: string,
    public preferredAppearance: Appearance,
    public themeLight: Theme,
    public themeDark: Theme,
    public companyHomePage: string | null,
    public createdAt: Date,
    public updatedAt: Date,
  ) {}

  static create(input: NewBrand, now: Date): Brand {
    Brand.checkName(input.name);
    Brand.checkAppearance(input.preferredAppearance);
    if (input.companyHomePage !== undefined) Brand.checkHomePage(input.companyHomePage);
    return new Brand(
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
  }

  /** Merge-patch update; `updatedAt` moves forward on every call, even when nothing differs. */
  update(changes: BrandChanges, now: Date): void {
    if (changes.name !== undefined) Brand.checkName(changes.name);
    if (changes.preferredAppearance !== undefined) Brand.checkAppearance(changes.preferredAppearance);
    if (changes.companyHomePage !== undefined && changes.companyHomePage !== null) {
      Brand.checkHomePage(changes.companyHomePage);
    }
    // Compute everything before assigning, so a rejected change leaves the brand untouched.
    const themeLight = changes.themeLight ? applyThemeChanges(this.themeLight, changes.themeLight, 'themeLight') : this.themeLight;
    const themeDark = changes.themeDark ? applyThemeChanges(this.themeDark, changes.themeDark, 'themeDark') : this.themeDark;
    if (changes.name !== undefined) this.name = changes.name;
    if (changes.preferredAppearance !== undefined) this.preferredAppearance = changes.preferredAppearance;
    if (changes.companyHomePage !== undefined) this.companyHomePage = changes.companyHomePage;
    this.themeLight = themeLight;
    this.themeDark = themeDark;
    this.updatedAt = movedForward(this.updatedAt, now);
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
