/** DI tokens for values that are not classes. */
export const LOGGER = Symbol('LOGGER');
export const APP_CONFIG = Symbol('APP_CONFIG');
