import { DomainEvent, domainEvent } from '../shared/domain-event';

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
  return domainEvent('page.version.created', input.tenantId, input.at, {
    pageVersionId: input.pageVersionId,
    pageId: input.pageId,
    pageGroupId: input.pageGroupId,
    version: input.version,
    createdAt: input.at.toISOString(),
  });
}
