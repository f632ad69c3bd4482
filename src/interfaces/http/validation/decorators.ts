import { applyDecorators } from '@nestjs/common';
import { IsDefined, IsISO8601, Matches, ValidateBy, ValidateIf, ValidationOptions } from 'class-validator';
import { DATE_OR_INSTANT, INSTANT, isCssHexColour, isHttpUrl, MAX_URL_LENGTH } from '../../../domain/shared/rules';

// Merge-patch needs three states: absent (skip), null and a value. class-validator's IsOptional
// folds null into absent, so these two say which fields may be null.

/** May be absent; when present (null included) the other rules apply. */
export const Optional = () => ValidateIf((_object: object, value: unknown) => value !== undefined);

/** May be absent or null; a value must pass the other rules. */
export const OptionalNullable = () => ValidateIf((_object: object, value: unknown) => value !== undefined && value !== null);

export const IsCssHexColour = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isCssHexColour',
      validator: {
        validate: (value: unknown) => isCssHexColour(value),
        defaultMessage: () => '$property must be a CSS hex colour (#rgb, #rgba, #rrggbb or #rrggbbaa)',
      },
    },
    options,
  );

export const IsHttpUrl = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isHttpUrl',
      validator: {
        validate: (value: unknown) => isHttpUrl(value),
        defaultMessage: () => `$property must be an absolute http or https URL of at most ${MAX_URL_LENGTH} characters`,
      },
    },
    options,
  );

/** Must be present and not null. */
export const Required = () =>
  IsDefined({ message: (args) => (args.value === null ? 'must not be null' : 'is required') });

// Note on order: class-validator runs a property's constraints from the decorator nearest the
// property upwards, and stops at the first failure (stopAtFirstError). DTOs therefore put the type
// check (IsString, IsObject) last, so that a wrong type is reported as such.

/** An ISO 8601 date-time with its offset, or with `dateOnly` also a date (rules.ts, INSTANT). */
export const IsInstant = (message: string, options: { dateOnly?: boolean } = {}) =>
  applyDecorators(
    Matches(options.dateOnly ? DATE_OR_INSTANT : INSTANT, { message }),
    IsISO8601({ strict: true, strictSeparator: true }, { message }),
  );
