import { ArgumentMetadata, Injectable, PipeTransform, ValidationPipe } from '@nestjs/common';
import { ApiError } from '../errors/api-error';
import { toValidationApiError } from './validation-error.factory';

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

/** Strict validation: unknown properties are errors, the first problem is reported by path. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
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
