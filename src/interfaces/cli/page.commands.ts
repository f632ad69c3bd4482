import { CreatePageVersion } from '../../application/page/create-page-version.use-case';
import { RecordSession } from '../../application/page/record-session.use-case';
import { CreatePageGroup } from '../../application/page-group/create-page-group.use-case';
import { DeletePageGroup } from '../../application/page-group/delete-page-group.use-case';
import { PageGroupView } from '../../application/page-group/page-group.view';
import { SetPageGroupStatus } from '../../application/page-group/set-page-group-status.use-case';
import { SeedDemo, DemoSeed } from '../../application/seed/seed-demo.use-case';
import { CreateSystemTemplate } from '../../application/template/create-system-template.use-case';
import { TemplateView } from '../../application/template/template.view';
import { isPageGroupStatus, PAGE_GROUP_STATUSES } from '../../domain/page-group/page-group';
import { UsageError } from './cli-args';
import { CliCommand } from './cli-context';

// The platform side of page groups, pages, sessions and templates (platform-cli.md).

function status(value: string): (typeof PAGE_GROUP_STATUSES)[number] {
  if (!isPageGroupStatus(value)) throw new UsageError(`option --status must be one of: ${PAGE_GROUP_STATUSES.join(', ')}`);
  return value;
}

const groupText = (result: object) => {
  const group = result as PageGroupView;
  return `page group ${group.pageGroupId}: "${group.name}", ${group.status}, ${group.pagesCount} page(s)`;
};

export const templateCreateSystemCommand: CliCommand = {
  name: 'template:create-system',
  summary: 'create a system template (visible to every tenant)',
  usage: 'template:create-system --name N --content C [--description D]',
  required: ['name', 'content'],
  optional: ['description'],
  run: (context, options) =>
    context.get(CreateSystemTemplate).execute({ name: options.name, templateContent: options.content, description: options.description }),
  text: (result) => `system template created: ${(result as TemplateView).pageTemplateId}`,
};

export const pageGroupCreateCommand: CliCommand = {
  name: 'page-group:create',
  summary: 'set up a page group for a tenant',
  usage: 'page-group:create --tenant T --name N [--title X] [--brand B] [--template P] [--status S] [--page-context X]',
  required: ['tenant', 'name'],
  optional: ['title', 'brand', 'template', 'status', 'page-context'],
  run: (context, options) =>
    context.get(CreatePageGroup).execute({
      tenantId: options.tenant,
      name: options.name,
      title: options.title,
      brandId: options.brand,
      pageTemplateId: options.template,
      status: options.status === undefined ? undefined : status(options.status),
      pageContext: options['page-context'],
    }),
  text: groupText,
};

export const pageGroupSetStatusCommand: CliCommand = {
  name: 'page-group:set-status',
  summary: 'change the status of a page group',
  usage: 'page-group:set-status --tenant T --id G --status draft|published|archived',
  required: ['tenant', 'id', 'status'],
  run: (context, options) => context.get(SetPageGroupStatus).execute({ tenantId: options.tenant, pageGroupId: options.id, status: status(options.status) }),
  text: groupText,
};

export const pageGroupDeleteCommand: CliCommand = {
  name: 'page-group:delete',
  summary: 'soft-delete a page group (it disappears from the API)',
  usage: 'page-group:delete --tenant T --id G',
  required: ['tenant', 'id'],
  run: (context, options) => context.get(DeletePageGroup).execute({ tenantId: options.tenant, pageGroupId: options.id }),
  text: (result) => {
    const { pageGroupId, deletedAt } = result as { pageGroupId: string; deletedAt: string };
    return `page group ${pageGroupId} deleted at ${deletedAt}`;
  },
};

export const pageVersionCreateCommand: CliCommand = {
  name: 'page-version:create',
  summary: 'create a new version of a page (emits page.version.created)',
  usage: 'page-version:create --tenant T --page P',
  required: ['tenant', 'page'],
  run: async (context, options) => {
    const version = await context.get(CreatePageVersion).execute({ tenantId: options.tenant, pageId: options.page });
    return { pageVersionId: version.pageVersionId, pageId: options.page, version: version.number };
  },
  text: (result) => {
    const { pageVersionId, pageId, version } = result as { pageVersionId: string; pageId: string; version: number };
    return `version ${version} of page ${pageId} created: ${pageVersionId}`;
  },
};

export const sessionRecordCommand: CliCommand = {
  name: 'session:record',
  summary: 'record a visit to a page with its UTM values',
  usage: 'session:record --tenant T --page P [--utm-source S] [--utm-medium M] [--utm-campaign C] [--utm-term T] [--utm-content X]',
  required: ['tenant', 'page'],
  optional: ['utm-source', 'utm-medium', 'utm-campaign', 'utm-term', 'utm-content'],
  run: (context, options) =>
    context.get(RecordSession).execute({
      tenantId: options.tenant,
      pageId: options.page,
      utm: {
        source: options['utm-source'],
        medium: options['utm-medium'],
        campaign: options['utm-campaign'],
        term: options['utm-term'],
        content: options['utm-content'],
      },
    }),
  text: (result) => `session recorded: ${(result as { sessionId: string }).sessionId}`,
};

export const demoSeedCommand: CliCommand = {
  name: 'demo:seed',
  summary: 'make a ready tenant with a key, a brand, templates, page groups, pages and sessions',
  usage: 'demo:seed',
  required: [],
  run: (context) => context.get(SeedDemo).execute(),
  text: (result) => {
    const seed = result as DemoSeed;
    return [
      `tenant:            ${seed.tenantId}`,
      `api key (shown once): ${seed.apiKey}`,
      `brand:             ${seed.brandId}`,
      `page groups:       ${seed.pageGroupIds.join(', ')}`,
      `system templates:  ${seed.systemTemplateIds.join(', ')}`,
      '',
      `try: curl -s http://127.0.0.1:3000/v0/page_groups -H "x-api-key: ${seed.apiKey}"`,
    ].join('\n');
  },
};
