import { defineEntity, p } from '@mikro-orm/postgresql';
import { textKey, reference, instant } from './columns';
import { partitionedByDay } from './history-partitions';
import { TenantRow } from './tenant.entity';

export class OutboxEventRow {
  id!: string;
  tenant!: TenantRow;
  type!: string;
  body!: string;
  createdAt!: Date;
  publishedAt: Date | null = null;
  traceparent: string | null = null;
  tracestate: string | null = null;
}

export const OutboxEventEntity = defineEntity({
  class: OutboxEventRow,
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
    tenant: () => reference(TenantRow),
    type: p.text(),
    body: p.text(),
    createdAt: instant(),
    publishedAt: instant().nullable(),
    traceparent: p.text().nullable(),
    tracestate: p.text().nullable(),
  },
});
