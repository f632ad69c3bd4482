import type { ValidationError } from 'class-validator';
import { ApiError } from '../errors/api-error';

/**
 * The first failing rule as `details.field` (a dot path with `[i]` for array items, as
 * decisions.md shows: `themeLight.borderColor`, `events[1]`) and `details.reason`.
 */
export function toValidationApiError(errors: ValidationError[], root = ''): ApiError {
  const { field, reason } = firstProblem(errors, root);
  return ApiError.validation(field, reason);
}

function firstProblem(errors: ValidationError[], parent: string): { field: string; reason: string } {
  const error = errors[0];
  if (!error || error.property === undefined || error.property === '') {
    return { field: parent || 'body', reason: 'must be a JSON object' };
  }
  const path = /^\d+$/.test(error.property) ? `${parent}[${error.property}]` : parent ? `${parent}.${error.property}` : error.property;
  const constraints = Object.entries(error.constraints ?? {});
  if (constraints.length > 0) {
    const [name, message] = constraints[0];
    if (name === 'whitelistValidation') return { field: path, reason: 'is not an allowed property' };
    return { field: path, reason: stripProperty(message, error.property) };
  }
  if (error.children && error.children.length > 0) return firstProblem(error.children, path);
  return { field: path, reason: 'is invalid' };
}

/** class-validator messages start with the property name; the reason is the rest. */
function stripProperty(message: string, property: string): string {
  return message.startsWith(`${property} `) ? message.slice(property.length + 1) : message;
}
