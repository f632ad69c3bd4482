import { IsInt, IsString, validate } from 'class-validator';
import { cacheValidationMetadataLookups } from '../../../../../src/interfaces/http/validation/validation-metadata-cache';

class Parent {
  @IsString()
  name!: unknown;
}

class Child extends Parent {
  @IsInt()
  count!: unknown;
}

class Later {
  @IsString()
  label!: unknown;
  count?: unknown;
}

const failures = async (object: object) => (await validate(object, { forbidUnknownValues: true })).map((e) => e.property).sort();

describe('the cache of class-validator lookups', () => {
  beforeAll(() => cacheValidationMetadataLookups());

  it('validates as before, own and inherited rules, on every call', async () => {
    for (let i = 0; i < 3; i++) {
      expect(await failures(Object.assign(new Child(), { name: 1, count: 'x' }))).toEqual(['count', 'name']);
      expect(await failures(Object.assign(new Child(), { name: 'a', count: 2 }))).toEqual([]);
      expect(await failures(Object.assign(new Parent(), { name: 1 }))).toEqual(['name']);
    }
  });

  it('sees a rule added to a class after its rules were looked up', async () => {
    expect(await failures(Object.assign(new Later(), { label: 'a', count: 'x' }))).toEqual([]);
    IsInt()(Later.prototype, 'count');
    expect(await failures(Object.assign(new Later(), { label: 'a', count: 'x' }))).toEqual(['count']);
  });

  it('installs once, however often it is called', async () => {
    cacheValidationMetadataLookups();
    cacheValidationMetadataLookups();
    expect(await failures(Object.assign(new Parent(), { name: 'ok' }))).toEqual([]);
  });
});
