import { Tenant } from './tenant';

export abstract class TenantRepository {
  /** Null when no tenant has this id. */
  abstract findById(id: string): Promise<Tenant | null>;
  abstract add(tenant: Tenant): Promise<void>;
}
