import { Brand } from '../../../../src/domain/brand/brand';
import { toBrandView } from '../../../../src/domain/brand/brand.view';

const at = new Date('2026-11-26T07:00:00.000Z');
const make = () => Brand.create({ tenantId: 'tenant_01jdq8w9k1a2b3c4d5e6f7g8h9', name: 'Acme', preferredAppearance: 'light', themeLight: {}, themeDark: { borderColor: '#000000' } }, at);

describe('toBrandView', () => {
  it('gives the same view again while the brand is unchanged, and the event carries that view', () => {
    const brand = make();
    const view = toBrandView(brand);
    expect(toBrandView(brand)).toBe(view);
    expect(brand.peekEvents()[0].data).toBe(view);
  });

  it('renders anew after any change, field by field', () => {
    const brand = make();
    const before = toBrandView(brand);
    brand.update({ themeDark: { mutedTextColor: '#111111' } }, new Date(at.getTime() + 1000));
    const after = toBrandView(brand);
    expect(after).not.toBe(before);
    expect(after.themeDark).toMatchObject({ borderColor: '#000000', mutedTextColor: '#111111' });
    expect(after.updatedAt).toBe('2026-11-26T07:00:01.000Z');
    expect(before.themeDark.mutedTextColor).toBeNull();
    brand.update({ name: 'Acme 2' }, new Date(at.getTime() + 2000));
    expect(toBrandView(brand).name).toBe('Acme 2');
  });

  it('is per brand: two brands in the same state have views of their own', () => {
    const one = make();
    const other = Brand.restore({ ...one, themeLight: { ...one.themeLight }, themeDark: { ...one.themeDark } });
    expect(toBrandView(other)).toEqual(toBrandView(one));
    expect(toBrandView(other)).not.toBe(toBrandView(one));
  });
});
