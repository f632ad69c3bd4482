import { EntitySchema } from '@mikro-orm/core';
import { entityClass } from './entity-class';
import { ApiKey } from '../../../domain/api-key/api-key';

export const ApiKeySchema = new EntitySchema<ApiKey>({
  class: entityClass(ApiKey),
  tableName: 'api_keys',
  properties: {
    id: { type: 'string', primary: true },
    tenantId: { type: 'string' },
    keyHash: { type: 'string' },
    displayPrefix: { type: 'string' },
    createdAt: { type: 'datetime' },
    revokedAt: { type: 'datetime', nullable: true },
  },
});
