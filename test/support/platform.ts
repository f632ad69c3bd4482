import { CreatePageVersion } from '../../src/application/page/create-page-version.use-case';
import { RecordSession } from '../../src/application/page/record-session.use-case';
import { CreatePageGroup } from '../../src/application/page-group/create-page-group.use-case';
import { DeletePageGroup } from '../../src/application/page-group/delete-page-group.use-case';
import { PageGroupView } from '../../src/application/page-group/page-group.view';
import { SetPageGroupStatus } from '../../src/application/page-group/set-page-group-status.use-case';
import { CreateSystemTemplate } from '../../src/application/template/create-system-template.use-case';
import { TemplateView } from '../../src/application/template/template.view';
import { NewPageGroup, PageGroupStatus } from '../../src/domain/page-group/page-group';
import { UtmValues } from '../../src/domain/page/page-session';
import { inContext, sqlIn } from './database';
import { TestApp } from './test-app';

/** The platform side (what the CLI does), for tests to set up page groups and the like. */
export function platform(t: TestApp) {
  const run = <T>(work: () => Promise<T>) => inContext(t.orm, work);
  return {
    systemTemplate: (name = 'System template'): Promise<TemplateView> =>
      run(() => t.app.get(CreateSystemTemplate).execute({ name, templateContent: `<main>${name}</main>`, description: `About ${name}` })),
    group: (tenantId: string, input: Partial<NewPageGroup> = {}): Promise<PageGroupView> =>
      run(() => t.app.get(CreatePageGroup).execute({ tenantId, name: 'Group', ...input })),
    setStatus: (tenantId: string, pageGroupId: string, status: PageGroupStatus) =>
      run(() => t.app.get(SetPageGroupStatus).execute({ tenantId, pageGroupId, status })),
    deleteGroup: (tenantId: string, pageGroupId: string) => run(() => t.app.get(DeletePageGroup).execute({ tenantId, pageGroupId })),
    version: (tenantId: string, pageId: string) => run(() => t.app.get(CreatePageVersion).execute({ tenantId, pageId })),
    session: (tenantId: string, pageId: string, utm: UtmValues) => run(() => t.app.get(RecordSession).execute({ tenantId, pageId, utm })),
  };
}

/** Rows of a table matching a condition, read straight from PostgreSQL. */
export async function rows<T = Record<string, unknown>>(t: TestApp, sql: string, params: unknown[] = []): Promise<T[]> {
  return sqlIn<T>(t.orm, sql, params);
}
