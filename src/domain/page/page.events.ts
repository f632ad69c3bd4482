import { DomainEvent } from '../shared/domain-event';
import { newTypeId } from '../shared/type-id';

/** Payload of `page.version.created`: what a receiver needs to fetch or show the new version. */
export interface PageVersionCreatedData {
  pageVersionId: string;
  pageId: string;
  pageGroupId: string;
  version: number;
  createdAt: string;
}

export function pageVersionCreated(input: {
  tenantId: string;
  pageVersionId: string;
  pageId: string;
  pageGroupId: string;
  version: number;
  at: Date;
}): DomainEvent<PageVersionCreatedData> {
  return {
    id: newTypeId('evt', input.at.getTime()),
    type: 'page.version.created',
    tenantId: input.tenantId,
    occurredAt: input.at,
    data: {
      pageVersionId: input.pageVersionId,
      pageId: input.pageId,
      pageGroupId: input.pageGroupId,
      version: input.version,
      createdAt: input.at.toISOString(),
    },
  };
}
