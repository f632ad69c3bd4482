import { Page } from '../../../src/domain/page/page';
import { PageSession } from '../../../src/domain/page/page-session';
import { PageSessionRepository } from '../../../src/domain/page/page-session-repository.port';
import { PageVersion } from '../../../src/domain/page/page-version';
import { PageRepository } from '../../../src/domain/page/page-repository.port';
import { PageVersionRepository } from '../../../src/domain/page/page-version-repository.port';
import { PageGroup } from '../../../src/domain/page-group/page-group';
import { PageGroupRepository } from '../../../src/domain/page-group/page-group-repository.port';
import { PageGroupQueries } from '../../../src/application/page-group/page-group-queries.port';
import { DomainEvent } from '../../../src/domain/shared/domain-event';
import { ConcurrentChangeError } from '../../../src/domain/shared/domain-error';
import { Template } from '../../../src/domain/template/template';
import { TemplateRepository } from '../../../src/domain/template/template-repository.port';

/** Groups kept as copies, so a use case that forgets to save changes nothing. */
export class InMemoryGroups extends PageGroupRepository {
  readonly rows = new Map<string, PageGroup>();
  readonly locked: string[] = [];
  async findActiveById(tenantId: string, id: string, options: { forUpdate?: boolean } = {}) {
    const group = this.rows.get(id);
    if (!group || group.tenantId !== tenantId || group.isDeleted()) return null;
    if (options.forUpdate) this.locked.push(id);
    return PageGroup.restore({ ...group });
  }
  async findDefaults(tenantId: string, id: string) {
    const group = await this.findActiveById(tenantId, id);
    return group && { pageTemplateId: group.pageTemplateId };
  }
  async add(group: PageGroup) {
    this.rows.set(group.id, PageGroup.restore({ ...group }));
  }
  async save(group: PageGroup) {
    this.rows.set(group.id, PageGroup.restore({ ...group }));
  }
}

/** The read side's group check over the same groups. */
export class InMemoryGroupQueries extends PageGroupQueries {
  constructor(private readonly groups: InMemoryGroups) {
    super();
  }
  async isActive(tenantId: string, id: string) {
    return (await this.groups.findActiveById(tenantId, id)) !== null;
  }
  list(): never {
    throw new Error('not used by the use cases under test');
  }
  findActive(): never {
    throw new Error('not used by the use cases under test');
  }
}

export class InMemoryTemplates extends TemplateRepository {
  readonly rows = new Map<string, Template>();
  async findVisible(tenantId: string, id: string) {
    const template = this.rows.get(id);
    return template && template.isVisibleTo(tenantId) ? template : null;
  }
  async findSystem(id: string) {
    const template = this.rows.get(id);
    return template?.isSystem ? template : null;
  }
  async add(template: Template) {
    this.rows.set(template.id, template);
  }
}

/** Pages, versions and the outbox in memory; `conflicts` makes the next N version saves lose a race. */
export class InMemoryPages extends PageRepository {
  readonly pages = new Map<string, Page>();
  readonly versions: PageVersion[] = [];
  readonly outbox: DomainEvent[] = [];
  async findById(tenantId: string, id: string) {
    const page = this.pages.get(id);
    return page && page.tenantId === tenantId ? page : null;
  }
  async add(page: Page, firstVersion: PageVersion) {
    this.pages.set(page.id, page);
    this.versions.push(firstVersion);
    this.outbox.push(...firstVersion.pullEvents());
  }
}

export class InMemoryVersions extends PageVersionRepository {
  conflicts = 0;
  constructor(private readonly store: InMemoryPages) {
    super();
  }
  async latestNumber(_tenantId: string, pageId: string) {
    return Math.max(0, ...this.store.versions.filter((v) => v.pageId === pageId).map((v) => v.number));
  }
  async add(page: Page, version: PageVersion) {
    if (this.conflicts > 0) {
      this.conflicts--;
      // Someone else took this number meanwhile.
      this.store.versions.push(PageVersion.next(this.store.pages.get(version.pageId)!, version.number - 1, version.createdAt));
      throw new ConcurrentChangeError('page');
    }
    this.store.versions.push(version);
    this.store.pages.set(page.id, page);
    this.store.outbox.push(...version.pullEvents());
  }
}

/** Sessions as recorded, in order. */
export class InMemorySessions extends PageSessionRepository {
  readonly rows: PageSession[] = [];
  async add(session: PageSession) {
    this.rows.push(session);
  }
}
