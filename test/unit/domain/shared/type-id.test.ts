import { isTypeId, newTypeId, parseTypeId, suffixToUuid, typeIdLowerBound, uuidToSuffix } from '../../../../src/domain/shared/type-id';

// Vectors from the TypeID specification (jetify-com/typeid, spec/valid.json and invalid.json).
const VALID = [
  { typeid: '00000000000000000000000000', prefix: '', uuid: '00000000-0000-0000-0000-000000000000' },
  { typeid: '00000000000000000000000001', prefix: '', uuid: '00000000-0000-0000-0000-000000000001' },
  { typeid: '0000000000000000000000000a', prefix: '', uuid: '00000000-0000-0000-0000-00000000000a' },
  { typeid: '0000000000000000000000000g', prefix: '', uuid: '00000000-0000-0000-0000-000000000010' },
  { typeid: '00000000000000000000000010', prefix: '', uuid: '00000000-0000-0000-0000-000000000020' },
  { typeid: '7zzzzzzzzzzzzzzzzzzzzzzzzz', prefix: '', uuid: 'ffffffff-ffff-ffff-ffff-ffffffffffff' },
  { typeid: 'prefix_0123456789abcdefghjkmnpqrs', prefix: 'prefix', uuid: '0110c853-1d09-52d8-d73e-1194e95b5f19' },
  { typeid: 'prefix_01h455vb4pex5vsknk084sn02q', prefix: 'prefix', uuid: '01890a5d-ac96-774b-bcce-b302099a8057' },
  { typeid: 'pre_fix_00000000000000000000000000', prefix: 'pre_fix', uuid: '00000000-0000-0000-0000-000000000000' },
];

const INVALID = [
  'PREFIX_00000000000000000000000000',
  '12345_00000000000000000000000000',
  'pre.fix_00000000000000000000000000',
  'préfix_00000000000000000000000000',
  '  prefix_00000000000000000000000000',
  'abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl_00000000000000000000000000',
  '_00000000000000000000000000',
  '_',
  'prefix_1234567890123456789012345',
  'prefix_123456789012345678901234567',
  'prefix_1234567890123456789012345 ',
  'prefix_0123456789ABCDEFGHJKMNPQRS',
  'prefix_123456789-123456789-123456',
  'prefix_ooooooiiiiiiuuuuuuulllllll',
  'prefix_i23456789ol23456789oi23456',
  'prefix_123456789-0123456789-0123456',
  'prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz',
  '_prefix_00000000000000000000000000',
  'prefix__00000000000000000000000000',
];

describe('TypeID', () => {
  it.each(VALID)('encodes and decodes the spec vector $typeid', ({ typeid, prefix, uuid }) => {
    const parsed = parseTypeId(typeid);
    expect(parsed).toEqual({ prefix, suffix: typeid.slice(typeid.length - 26) });
    expect(suffixToUuid(parsed!.suffix)).toBe(uuid);
    expect(uuidToSuffix(uuid)).toBe(parsed!.suffix);
  });

  it.each(INVALID)('rejects the spec vector %j', (typeid) => {
    expect(parseTypeId(typeid)).toBeNull();
  });

  it('makes UUIDv7 ids with the prefix, version 7 and the RFC variant', () => {
    const id = newTypeId('brand', Date.UTC(2026, 10, 22));
    expect(isTypeId(id, 'brand')).toBe(true);
    const uuid = suffixToUuid(id.slice('brand_'.length))!;
    expect(uuid[14]).toBe('7');
    expect(['8', '9', 'a', 'b']).toContain(uuid[19]);
    expect(parseInt(uuid.replace(/-/g, '').slice(0, 12), 16)).toBe(Date.UTC(2026, 10, 22));
  });

  it('sorts ids made in the same millisecond in creation order', () => {
    const now = Date.now() + 60_000;
    const ids = Array.from({ length: 500 }, () => newTypeId('brand', now));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('tells a right prefix from a wrong one', () => {
    const id = newTypeId('brand');
    expect(isTypeId(id, 'brand')).toBe(true);
    expect(isTypeId(id, 'tenant')).toBe(false);
    expect(isTypeId(id.replace('brand_', 'tenant_'), 'brand')).toBe(false);
    expect(isTypeId(`${id}x`, 'brand')).toBe(false);
    expect(isTypeId(42, 'brand')).toBe(false);
  });

  it('bounds ids by time: every id made at a millisecond or later sorts at or above its lower bound, every earlier one below', () => {
    // Far ahead of the clock, in increasing order, so the process's monotonic state uses these times as given.
    const start = Date.now() + 86_400_000;
    for (let i = 0; i < 50; i++) {
      const ms = start + i * 7;
      const before = newTypeId('evt', ms - 1);
      const at = newTypeId('evt', ms);
      const after = newTypeId('evt', ms + 1);
      const bound = typeIdLowerBound('evt', ms);
      expect(isTypeId(bound, 'evt')).toBe(true);
      expect(before < bound).toBe(true);
      expect(at >= bound && after >= bound).toBe(true);
    }
    expect(typeIdLowerBound('evt', 0)).toBe('evt_00000000000000000000000000');
  });
});
