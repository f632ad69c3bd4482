import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';
import { SUPPLEMENTARY_CONTEXT_MAX } from '../../../domain/page/page';
import { OptionalNullable } from '../validation/decorators';

// The content fields of a page, as a new page and a new version take them: the same rules, each
// request its own description of what absent and null mean.

export const PageTemplateIdField = (description: string) =>
  applyDecorators(
    // `type` stated: from `string | null` the plugin can only infer `object`.
    ApiPropertyOptional({ type: String, description, example: 'pagetemplate_01jdq8x0m2f3e4r5t6y7u8i9o0', nullable: true }),
    OptionalNullable(),
    Length(1, 100, { message: 'must be the id of a system template or of one of your templates' }),
    IsString({ message: 'must be a string' }),
  );

export const SupplementaryContextField = (description: string, example: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: String, minLength: 1, maxLength: SUPPLEMENTARY_CONTEXT_MAX, description, example, nullable: true }),
    OptionalNullable(),
    Length(1, SUPPLEMENTARY_CONTEXT_MAX, { message: `must be 1 to ${SUPPLEMENTARY_CONTEXT_MAX} characters` }),
    IsString({ message: 'must be a string' }),
  );
