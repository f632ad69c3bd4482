import { EntityCtor } from '@mikro-orm/core';

/**
 * Aggregates keep their constructors private so that only their factories make them; the ORM
 * never calls a constructor when it hydrates, so it may be handed the class as if it were public.
 */
export function entityClass<T extends object>(cls: { prototype: T }): EntityCtor<T> {
  return cls as unknown as EntityCtor<T>;
}
