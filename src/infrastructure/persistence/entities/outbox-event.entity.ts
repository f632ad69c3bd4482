import { type InferEntity, defineEntity, p } from '@mikro-orm/postgresql';
import { textKey, reference, instant } from './columns';
import { partitionedByDay } from './history-partitions';
import { TenantEntity } from './tenant.entity';

export const OutboxEventEntity = defineEntity({
  name: 'OutboxEventRow',
  tableName: 'outbox_events',
  partitionBy: partitionedByDay('outbox_events', 'id', 'evt'),
  indexes: [
    { name: 'outbox_events_tenant_idx', properties: ['tenant', 'id'] },
    {
      name: 'outbox_events_tenant_type_idx',
      properties: ['tenant', 'type', 'id'],
    },
  ],
  checks: [
    {
      name: 'outbox_events_traceparent_check',
      expression: 'length(traceparent) = 55',
    },
    {
      name: 'outbox_events_tracestate_check',
      expression: 'length(tracestate) <= 512',
    },
  ],
  properties: {
    id: textKey(),
    tenant: () => reference(TenantEntity),
    type: p.text(),
    body: p.text(),
    createdAt: instant(),
    publishedAt: instant().nullable(),
    traceparent: p.text().nullable(),
    tracestate: p.text().nullable(),
  },
});

export type OutboxEventRow = InferEntity<typeof OutboxEventEntity>;
