import { applyDecorators } from '@nestjs/common';
import { IsIn, IsString, Length } from 'class-validator';
import { BRAND_NAME_MAX } from '../../../domain/brand/brand';
import { APPEARANCES } from '../../../domain/brand/brand.state';
import { IsHttpUrl } from '../validation/decorators';

// A brand's fields' rules, the same for a create and a PATCH (which differ only in what is
// required and what null means). Each lists its checks bottom-first, as they were stacked, so
// that the first problem reported stays the same.

/** A string of 1 to BRAND_NAME_MAX characters. */
export const BrandNameRules = () =>
  applyDecorators(IsString({ message: 'must be a string' }), Length(1, BRAND_NAME_MAX, { message: `must be 1 to ${BRAND_NAME_MAX} characters` }));

/** One of the appearances. */
export const AppearanceRules = () => IsIn(APPEARANCES, { message: `must be one of: ${APPEARANCES.join(', ')}` });

/** An absolute http(s) URL. */
export const HomePageRules = () => applyDecorators(IsString({ message: 'must be a string' }), IsHttpUrl());
