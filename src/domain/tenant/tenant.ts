import { InvalidValueError } from '../shared/domain-error';
import { newTypeId } from '../shared/type-id';

/** A customer of the platform; every other record belongs to exactly one. */
export class Tenant {
  private constructor(
    readonly id: string,
    readonly name: string,
    readonly createdAt: Date,
  ) {}

  static create(name: string, now: Date): Tenant {
    const trimmed = name.trim();
    if (trimmed.length === 0 || trimmed.length > 200) {
      throw new InvalidValueError('name', 'must be 1 to 200 characters');
    }
    return new Tenant(newTypeId('tenant'), trimmed, now);
  }

  /** A tenant as it was stored (it passed create's rules then). */
  static restore(state: { id: string; name: string; createdAt: Date }): Tenant {
    return Object.assign(Object.create(Tenant.prototype) as Tenant, state);
  }
}
