// The dependency rule of the hexagon (README, Architecture), checked on every `npm test`.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'src/domain imports nothing outside src/domain: no framework, no library, no Node module.',
      severity: 'error',
      from: { path: '^src/domain' },
      to: { pathNot: '^src/domain' },
    },
    {
      name: 'application-uses-no-adapter',
      comment: 'src/application imports the domain and itself; of frameworks only @nestjs/common (Injectable).',
      severity: 'error',
      from: { path: '^src/application' },
      to: { pathNot: ['^src/(domain|application)', '^node_modules/@nestjs/common'] },
    },
    {
      name: 'adapters-do-not-import-each-other',
      comment: 'infrastructure and interfaces meet only in the composition (src/composition, wired per process).',
      severity: 'error',
      from: { path: '^src/infrastructure' },
      to: { path: '^src/interfaces' },
    },
    {
      name: 'driving-adapters-do-not-import-driven-ones',
      severity: 'error',
      from: { path: '^src/interfaces' },
      to: { path: '^src/infrastructure' },
    },
    {
      name: 'layers-do-not-import-the-wiring',
      comment: 'src/composition wires the layers per process (api, worker, cli); no layer depends on it.',
      severity: 'error',
      from: { path: '^src/(domain|application|infrastructure|interfaces)' },
      to: { path: '^src/composition' },
    },
    {
      name: 'entry-points-are-thin',
      comment: 'src/main.ts and src/cli.ts only start a process of src/composition.',
      severity: 'error',
      from: { path: '^src/(main|cli)\\.ts$' },
      to: { pathNot: ['^src/composition', '^node_modules/reflect-metadata'] },
    },
    {
      name: 'portal-page-is-a-client-of-the-public-api',
      comment: 'The portal page (a browser bundle) reaches the server only through the typed client of the public API.',
      severity: 'error',
      from: { path: '^src/interfaces/portal-page' },
      to: { pathNot: ['^src/interfaces/portal-page', '^client/', '^node_modules/(preact|uplot|openapi-fetch)/'] },
    },
    {
      name: 'adapters-apply-no-webhook-policy',
      comment: 'What an attempt does, what follows it and how a relay round is planned are decided by the domain and applied by the application; an adapter only reads and writes what it is given (it may name their types).',
      severity: 'error',
      from: { path: '^src/infrastructure' },
      to: { path: '^src/domain/webhook/(attempt-decision|attempt-conclusion|relay-plan|delivery-ordering|delivery-pace|retry-policy)\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(dist|test)/' },
  },
};
