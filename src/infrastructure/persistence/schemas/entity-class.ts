import { EntityCtor } from '@mikro-orm/core';

/**
 * Aggregates keep their constructors private so that only their factories make them; the ORM
 * never calls a constructor when it hydrates, so it may be handed the class as if it were public.
 */
export function entityClass<T extends object>(cls: { prototype: T }): EntityCtor<T> {
  return cls as unknown as EntityCtor<T>;
}

/**
 * An aggregate read with a plain statement, made as the ORM makes one: its fields set on an
 * object of its prototype, its constructor (private, for factories) not called.
 */
export function hydrate<T extends object>(cls: { prototype: T }, fields: { [K in keyof T]?: T[K] }): T {
  return Object.assign(Object.create(cls.prototype) as T, fields);
}
