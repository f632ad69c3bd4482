import { Injectable } from '@nestjs/common';
import { CreateApiKey } from '../api-key/create-api-key.use-case';
import { CreateBrand } from '../brand/create-brand.use-case';
import { CreatePage } from '../page/create-page.use-case';
import { CreatePageVersion } from '../page/create-page-version.use-case';
import { RecordSession } from '../page/record-session.use-case';
import { CreatePageGroup } from '../page-group/create-page-group.use-case';
import { UnitOfWork } from '../shared/unit-of-work.port';
import { CreateSystemTemplate } from '../template/create-system-template.use-case';
import { CreateTenant } from '../tenant/create-tenant.use-case';
import { PAGE_GROUP_STATUSES } from '../../domain/page-group/page-group';

export interface DemoSeed {
  tenantId: string;
  apiKey: string;
  brandId: string;
  pageGroupIds: string[];
  systemTemplateIds: string[];
}

const UTM_SAMPLES = [
  { source: 'google', medium: 'cpc', campaign: 'spring-sale', term: 'landing pages', content: 'ad-a' },
  { source: 'newsletter', medium: 'email', campaign: 'spring-sale', content: 'hero-link' },
  { source: 'linkedin', medium: 'social', campaign: 'launch' },
  { source: 'google', medium: 'organic' },
];

/**
 * A ready tenant for trying the API (platform-cli.md, demo:seed): a key, a brand, system
 * templates, one page group per status with pages of two versions each, and sessions with UTM
 * values (today's, in the pages' statistics). All in one
 * transaction: a failure leaves nothing behind.
 */
@Injectable()
export class SeedDemo {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly createTenant: CreateTenant,
    private readonly createApiKey: CreateApiKey,
    private readonly createBrand: CreateBrand,
    private readonly createSystemTemplate: CreateSystemTemplate,
    private readonly createPageGroup: CreatePageGroup,
    private readonly createPage: CreatePage,
    private readonly createPageVersion: CreatePageVersion,
    private readonly recordSession: RecordSession,
  ) {}

  execute(): Promise<DemoSeed> {
    return this.unitOfWork.run(async () => {
      const { tenantId } = await this.createTenant.execute({ name: 'Demo tenant' });
      const { apiKey } = await this.createApiKey.execute({ tenantId });
      const brand = await this.createBrand.execute({
        tenantId,
        name: 'Demo brand',
        preferredAppearance: 'system',
        themeLight: { pageBackgroundColor: '#ffffff', pageForegroundColor: '#111827', buttonBackgroundColor: '#4f46e5', buttonTextColor: '#ffffff' },
        themeDark: { pageBackgroundColor: '#111827', pageForegroundColor: '#f9fafb', buttonBackgroundColor: '#818cf8', buttonTextColor: '#111827' },
        companyHomePage: 'https://demo.example',
      });
      const templates = [
        await this.createSystemTemplate.execute({ name: 'Lead capture', templateContent: '<section>{{headline}}</section>', description: 'A headline and a form' }),
        await this.createSystemTemplate.execute({ name: 'Product launch', templateContent: '<main>{{hero}}</main>', description: undefined }),
      ];
      const pageGroupIds: string[] = [];
      for (const status of PAGE_GROUP_STATUSES) {
        const group = await this.createPageGroup.execute({
          tenantId,
          name: `Demo ${status} group`,
          title: `Demo ${status} pages`,
          brandId: brand.brandId,
          pageTemplateId: templates[0].pageTemplateId,
          pageContext: 'A landing page for the spring sale.',
          status,
          actions: [{ type: 'link', label: 'Book a demo', url: 'https://demo.example/book' }],
          footerLinks: [{ label: 'Privacy', url: 'https://demo.example/privacy' }],
          scripts: [{ src: 'https://demo.example/analytics.js', async: true }],
        });
        pageGroupIds.push(group.pageGroupId);
        for (let i = 0; i < 2; i++) {
          const page = await this.createPage.execute({ tenantId, pageGroupId: group.pageGroupId, supplementaryContext: `Variant ${i + 1}` });
          // A second version, so that a page's versions and its current content show a change.
          await this.createPageVersion.execute({ tenantId, pageId: page.pageId, pageTemplateId: templates[1].pageTemplateId, supplementaryContext: `Variant ${i + 1}, second draft` });
          for (const utm of UTM_SAMPLES) await this.recordSession.execute({ tenantId, pageId: page.pageId, utm });
        }
      }
      return { tenantId, apiKey, brandId: brand.brandId, pageGroupIds, systemTemplateIds: templates.map((t) => t.pageTemplateId) };
    });
  }
}
