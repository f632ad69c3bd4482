import { ArgumentMetadata, Injectable, PipeTransform, ValidationPipe } from '@nestjs/common';
import { ApiError } from '../errors/api-error';
import { toValidationApiError } from './validation-error.factory';
import { cacheValidationMetadataLookups } from './validation-metadata-cache';

/** A body must be a JSON object; no body at all counts as `{}` (decisions.md, Response shapes). */
@Injectable()
export class JsonObjectBodyPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type !== 'body') return value;
    if (value === undefined) return {};
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw ApiError.validation('body', 'must be a JSON object');
    }
    return value;
  }
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
// C0 controls but tab, line feed and carriage return; DEL; and UTF-16 halves without their pair
// (which PostgreSQL cannot store): none is text anyone means to send.
const UNSAFE_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Hostile shapes, refused before any other pipe looks at the body: keys that could reach an
 * object's prototype, and control characters. (Nesting deeper than any of our bodies needs was
 * refused from the raw bytes, before parsing: body/json-body.reader.ts.)
 */
@Injectable()
export class SafeInputPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type === 'body') inspect(value, '');
    return value;
  }
}

function inspect(value: unknown, path: string): void {
  if (typeof value === 'string') {
    if (UNSAFE_TEXT.test(value)) throw ApiError.validation(path || 'body', 'must not contain control characters or unpaired surrogates');
    return;
  }
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    value.forEach((item, i) => inspect(item, `${path}[${i}]`));
    return;
  }
  for (const key of Object.keys(value)) {
    const child = path ? `${path}.${key}` : key;
    if (FORBIDDEN_KEYS.has(key)) throw ApiError.validation(child, 'is not an allowed property');
    inspect((value as Record<string, unknown>)[key], child);
  }
}

/**
 * Nest's ValidationPipe, with one shortcut: an empty body or query (`{}`, as POST pages, a
 * duplicate and most list requests send) is checked once per DTO class, and from then on is
 * answered with a new empty instance without running class-transformer and class-validator
 * again; they cost a request more than its SQL (docs/performance-analysis.md). Only when the
 * first check passed and gave exactly that; a DTO that refuses `{}` goes through in full every time.
 */
class StrictValidationPipe extends ValidationPipe {
  private readonly emptyPasses = new Map<unknown, boolean>();

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const type = metadata.metatype as (new () => object) | undefined;
    if (!type || !isEmptyObject(value) || (metadata.type !== 'body' && metadata.type !== 'query')) return super.transform(value, metadata);
    let passes = this.emptyPasses.get(type);
    if (passes === undefined) {
      const result: unknown = await super.transform({}, metadata).catch(() => undefined);
      passes = result instanceof type && result.constructor === type && Object.keys(result).length === 0;
      this.emptyPasses.set(type, passes);
    }
    return passes ? new type() : super.transform(value, metadata);
  }
}

function isEmptyObject(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Reflect.ownKeys(value).length === 0;
}

/** Strict validation: unknown properties are errors, the first problem is reported by path. */
export function createValidationPipe(): ValidationPipe {
  cacheValidationMetadataLookups();
  return new StrictValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    stopAtFirstError: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => toValidationApiError(errors),
  });
}
