import { BulkSeeder, BulkSeedResult } from '../../application/seed/bulk-seeder.port';
import { UsageError } from './cli-args';
import { CliCommand } from './cli-context';

const DEFAULTS = { tenants: 100, brands: 100_000, 'page-groups': 1_000, 'pages-per-group': 3, sessions: 1_000_000, 'hot-group-share': 0.5, 'wide-utm-sessions': 0, deliveries: 0 };

function count(options: Record<string, string>, name: keyof typeof DEFAULTS, max: number, min = 1): number {
  if (options[name] === undefined) return DEFAULTS[name];
  const value = Number(options[name]);
  if (!Number.isInteger(value) || value < min || value > max) throw new UsageError(`option --${name} must be an integer from ${min} to ${max}`);
  return value;
}

export const seedBulkCommand: CliCommand = {
  name: 'seed:bulk',
  summary: 'write a large data set for benchmarks (with progress)',
  usage: 'seed:bulk [--tenants 100] [--brands 100000] [--page-groups 1000] [--pages-per-group 3] [--sessions 1000000] [--hot-group-share 0.5] [--wide-utm-sessions 0] [--deliveries 0]',
  required: [],
  optional: ['tenants', 'brands', 'page-groups', 'pages-per-group', 'sessions', 'hot-group-share', 'wide-utm-sessions', 'deliveries'],
  run: (context, options) => {
    const share = options['hot-group-share'] === undefined ? DEFAULTS['hot-group-share'] : Number(options['hot-group-share']);
    if (!(share >= 0 && share <= 1)) throw new UsageError('option --hot-group-share must be a number from 0 to 1');
    const sizes = {
      tenants: count(options, 'tenants', 100_000),
      brands: count(options, 'brands', 10_000_000),
      pageGroups: count(options, 'page-groups', 1_000_000),
      pagesPerGroup: count(options, 'pages-per-group', 1_000),
      sessions: count(options, 'sessions', 100_000_000),
      hotGroupShare: share,
      wideUtmSessions: count(options, 'wide-utm-sessions', 10_000_000, 0),
      deliveries: count(options, 'deliveries', 100_000_000, 0),
    };
    return context.get(BulkSeeder).seed(sizes, context.progress);
  },
  text: (result) => {
    const r = result as BulkSeedResult;
    return [
      `seeded in ${r.seconds} s: ${r.tenants} tenants, ${r.brands} brands, ${r.pageGroups} page groups, ${r.pages} pages, ${r.sessions} sessions, ${r.utmValues} distinct UTM values, ${r.deliveries} webhook deliveries`,
      `sample tenant ${r.sample.tenantId} (key ${r.sample.apiKey}), hot page group ${r.sample.pageGroupId}`,
    ].join('\n');
  },
};
