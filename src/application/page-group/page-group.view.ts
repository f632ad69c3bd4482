import { PageGroup, PageGroupStatus, PlatformObject } from '../../domain/page-group/page-group';

/** Page group (list item) of the spec, field for field; nullable strings are null when unset. */
export interface PageGroupView {
  pageGroupId: string;
  tenantId: string;
  brandId: string | null;
  name: string;
  title: string | null;
  pageContext: string | null;
  pageTemplateId: string | null;
  headerActionId: string | null;
  status: PageGroupStatus;
  pagesCount: number;
  actions: PlatformObject[];
  footerLinks: PlatformObject[];
  scripts: PlatformObject[];
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
}

export function toPageGroupView(group: PageGroup): PageGroupView {
  return {
    pageGroupId: group.id,
    tenantId: group.tenantId,
    brandId: group.brandId,
    name: group.name,
    title: group.title,
    pageContext: group.pageContext,
    pageTemplateId: group.pageTemplateId,
    headerActionId: group.headerActionId,
    status: group.status,
    pagesCount: group.pagesCount,
    actions: group.actions,
    footerLinks: group.footerLinks,
    scripts: group.scripts,
    createdAt: group.createdAt.toISOString(),
    updatedAt: group.updatedAt.toISOString(),
    deletedAt: group.deletedAt?.toISOString() ?? null,
  };
}
