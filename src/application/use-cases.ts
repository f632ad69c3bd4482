import { AuthenticateApiKey } from './api-key/authenticate-api-key.use-case';
import { CreateApiKey } from './api-key/create-api-key.use-case';
import { RevokeApiKey } from './api-key/revoke-api-key.use-case';
import { CreateBrand } from './brand/create-brand.use-case';
import { GetBrand } from './brand/get-brand.use-case';
import { ListBrands } from './brand/list-brands.use-case';
import { UpdateBrand } from './brand/update-brand.use-case';
import { CreateTenant } from './tenant/create-tenant.use-case';

/** Every use case, for the composition roots to provide. */
export const USE_CASES = [
  AuthenticateApiKey,
  CreateApiKey,
  RevokeApiKey,
  CreateTenant,
  CreateBrand,
  GetBrand,
  ListBrands,
  UpdateBrand,
];
