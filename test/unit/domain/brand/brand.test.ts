import { Brand } from '../../../../src/domain/brand/brand';
import { EMPTY_THEME } from '../../../../src/domain/brand/theme';
import { InvalidValueError } from '../../../../src/domain/shared/domain-error';

const T0 = new Date('2026-11-22T10:00:00.000Z');
const T1 = new Date('2026-11-22T11:00:00.000Z');

function newBrand(overrides: Partial<Parameters<typeof Brand.create>[0]> = {}): Brand {
  return Brand.create(
    {
      tenantId: 'tenant_01jdq8w9k1a2b3c4d5e6f7g8h9',
      name: 'Acme',
      preferredAppearance: 'system',
      themeLight: { borderColor: '#e5e7eb', logo: { type: 'url', url: 'https://cdn.example.com/logo.svg' } },
      themeDark: {},
      ...overrides,
    },
    T0,
  );
}

describe('Brand', () => {
  it('is created with all 14 theme fields, images given by URL filling only …Url', () => {
    const brand = newBrand();
    expect(brand.id).toMatch(/^brand_[0-9a-z]{26}$/);
    expect(brand.themeLight).toEqual({ ...EMPTY_THEME, borderColor: '#e5e7eb', logoUrl: 'https://cdn.example.com/logo.svg' });
    expect(brand.themeDark).toEqual(EMPTY_THEME);
    expect(brand.companyHomePage).toBeNull();
    expect(brand.createdAt).toEqual(T0);
    expect(brand.updatedAt).toEqual(T0);
  });

  it('keeps values as sent, without case folding', () => {
    const brand = newBrand({ themeLight: { borderColor: '#ABCDEF' }, companyHomePage: 'HTTPS://Acme.Example/Path' });
    expect(brand.themeLight.borderColor).toBe('#ABCDEF');
    expect(brand.companyHomePage).toBe('HTTPS://Acme.Example/Path');
  });

  it.each([
    [{ name: '' }, 'name'],
    [{ name: 'x'.repeat(201) }, 'name'],
    [{ preferredAppearance: 'blue' as never }, 'preferredAppearance'],
    [{ companyHomePage: 'ftp://acme.example' }, 'companyHomePage'],
    [{ themeLight: { borderColor: 'red' } }, 'themeLight.borderColor'],
    [{ themeDark: { logo: { type: 'file' as never, url: 'https://x.example' } } }, 'themeDark.logo.type'],
    [{ themeDark: { favicon: { type: 'url' as const, url: 'javascript:alert(1)' } } }, 'themeDark.favicon.url'],
  ])('rejects %j naming %s', (overrides, field) => {
    expect(() => newBrand(overrides)).toThrow(InvalidValueError);
    try {
      newBrand(overrides);
    } catch (error) {
      expect((error as InvalidValueError).details).toMatchObject({ field });
    }
  });

  describe('update (JSON merge patch)', () => {
    it('keeps absent fields, replaces present ones and merges themes field by field', () => {
      const brand = newBrand();
      brand.update({ name: 'Acme 2', themeLight: { buttonTextColor: '#fff' } }, T1);
      expect(brand.name).toBe('Acme 2');
      expect(brand.preferredAppearance).toBe('system');
      expect(brand.themeLight).toMatchObject({ borderColor: '#e5e7eb', buttonTextColor: '#fff', logoUrl: 'https://cdn.example.com/logo.svg' });
    });

    it('clears nullable fields given as null', () => {
      const brand = newBrand({ companyHomePage: 'https://acme.example' });
      brand.update({ companyHomePage: null, themeLight: { borderColor: null, logo: null } }, T1);
      expect(brand.companyHomePage).toBeNull();
      expect(brand.themeLight.borderColor).toBeNull();
      expect(brand.themeLight.logoUrl).toBeNull();
      expect(brand.themeLight.logoFileId).toBeNull();
    });

    it('moves updatedAt on every update, even with nothing to change or a clock that stands still', () => {
      const brand = newBrand();
      brand.update({}, T1);
      expect(brand.updatedAt).toEqual(T1);
      brand.update({}, T1);
      expect(brand.updatedAt.getTime()).toBe(T1.getTime() + 1);
      expect(brand.createdAt).toEqual(T0);
    });

    it('changes nothing when any part of the patch is invalid', () => {
      const brand = newBrand();
      const before = JSON.stringify(brand);
      expect(() => brand.update({ name: 'New', themeDark: { borderColor: 'nope' } }, T1)).toThrow(InvalidValueError);
      expect(JSON.stringify(brand)).toBe(before);
    });
  });
});
