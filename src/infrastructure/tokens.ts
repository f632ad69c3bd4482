/** DI tokens for values that are not classes. */
export { LOGGER } from '../application/shared/logger';
export const APP_CONFIG = Symbol('APP_CONFIG');
