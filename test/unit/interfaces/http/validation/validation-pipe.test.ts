import { IsString, MaxLength } from 'class-validator';
import { Optional } from '../../../../../src/interfaces/http/validation/decorators';
import { createValidationPipe } from '../../../../../src/interfaces/http/validation/validation.pipes';

class AllOptional {
  @Optional()
  @IsString()
  @MaxLength(3)
  name?: string;
}

class NeedsName {
  @IsString()
  name!: string;
}

describe('the validation pipe', () => {
  it('answers an empty body with an empty instance of the DTO, every time', async () => {
    const pipe = createValidationPipe();
    for (let i = 0; i < 3; i++) {
      const result = await pipe.transform({}, { type: 'body', metatype: AllOptional });
      expect(result).toBeInstanceOf(AllOptional);
      expect(Object.keys(result as object)).toEqual([]);
    }
    // A fresh instance each time: a handler that writes to it cannot reach the next request.
    const [first, second] = await Promise.all([pipe.transform({}, { type: 'query', metatype: AllOptional }), pipe.transform({}, { type: 'query', metatype: AllOptional })]);
    expect(first).not.toBe(second);
  });

  it('still refuses an empty body to a DTO with a required field, every time, naming the field', async () => {
    const pipe = createValidationPipe();
    for (let i = 0; i < 2; i++) {
      await expect(pipe.transform({}, { type: 'body', metatype: NeedsName })).rejects.toMatchObject({ details: { field: 'name' } });
    }
  });

  it('checks a body that is not empty in full after an empty one passed', async () => {
    const pipe = createValidationPipe();
    await pipe.transform({}, { type: 'body', metatype: AllOptional });
    await expect(pipe.transform({ name: 'toolong' }, { type: 'body', metatype: AllOptional })).rejects.toMatchObject({ details: { field: 'name' } });
    await expect(pipe.transform({ other: 1 }, { type: 'body', metatype: AllOptional })).rejects.toMatchObject({ details: { field: 'other' } });
  });
});
