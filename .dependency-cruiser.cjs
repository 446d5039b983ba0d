// The import rules of src/ (docs/ARCHITECTURE.md, "The rules the layout keeps"). `npm run check` runs them
// through scripts/check-layers.mjs, which adds the one rule an import graph cannot see: SQL only in stores.
//
// Tiers, lowest first: shared → platform → records → features → composition roots (app, server, worker,
// job-registry). Clients stand beside the server: they see shared/, each other, and the server's types only.

/** Features, lowest first: a feature may import only the features before it, so no two features loop. */
const FEATURE_ORDER = [
  'orgs',
  'auth',
  'sidecars',
  'controls',
  'evidence',
  'ai-systems',
  'attestations',
  'cte',
  'members',
  'audit-trail',
  'scores',
  'compliance',
  'requirements',
  'applicability',
  'risks',
  'impact-assessments',
  'documents',
  'audits',
  'reviews',
  'agenda',
  'notifications',
  'exports',
  'health',
  'console',
];

const escapeRegExp = (name) => name.replace(/[-/\\^$*+?.()|[\]{}]/g, '\\$&');
const ROOTS = '^src/(app|server|worker|job-registry|caches)\\.ts$';

const featureOrderRules = FEATURE_ORDER.map((feature, index) => ({
  name: `feature-order:${feature}`,
  comment: `features/${feature} may import only the features before it in FEATURE_ORDER (.dependency-cruiser.cjs)`,
  severity: 'error',
  from: { path: `^src/features/${escapeRegExp(feature)}/` },
  to: {
    path: '^src/features/([^/]+)/',
    pathNot: [
      `^src/features/(${FEATURE_ORDER.slice(0, index + 1)
        .map(escapeRegExp)
        .join('|')})/`,
    ],
  },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Modules import each other in a circle (type-only imports do not count)',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'shared-stands-alone',
      comment: 'shared/ (vocabulary, schema primitives, pure rules both sides run) imports only shared/',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { path: '^src/', pathNot: '^src/shared/' },
    },
    {
      name: 'platform-below-the-domain',
      comment: 'platform/ knows no feature, record or client',
      severity: 'error',
      from: { path: '^src/platform/' },
      to: { path: '^src/', pathNot: '^src/(platform|shared)/' },
    },
    {
      name: 'records-below-the-features',
      comment:
        'records/ (requirement records, effective status, score, state log) imports only platform/ and shared/',
      severity: 'error',
      from: { path: '^src/records/' },
      to: { path: '^src/', pathNot: '^src/(records|platform|shared)/' },
    },
    {
      name: 'stores-and-schemas-import-down',
      comment:
        'a store or a schema module imports only records/, platform/, shared/, its own folder and the ' +
        'schemas of the features before it (which FEATURE_ORDER decides)',
      severity: 'error',
      from: { path: '^src/features/([^/]+)/.*\\.(store|schemas)\\.ts$' },
      to: {
        path: '^src/',
        pathNot: [
          '^src/(records|platform|shared)/',
          '^src/features/$1/',
          '^src/features/[^/]+/[^/]+\\.schemas\\.ts$',
        ],
        dependencyTypesNot: ['type-only'],
      },
    },
    ...featureOrderRules,
    {
      name: 'features-below-the-roots',
      comment: 'only the composition roots import app, server, worker and the job registry',
      severity: 'error',
      from: { path: '^src/(features|records|platform|shared)/' },
      to: { path: ROOTS },
    },
    {
      name: 'context-is-a-type',
      comment: 'src/context.ts describes what the app carries; below the roots it is imported as a type only',
      severity: 'error',
      from: { path: '^src/(features|records|platform|shared)/' },
      to: { path: '^src/context\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'server-never-imports-clients',
      comment: 'no server module imports the CLI, the MCP server, the gate or the API client',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/clients/' },
      to: { path: '^src/clients/' },
    },
    {
      name: 'clients-see-types-only',
      comment:
        "clients run the server's code only through the API: from the server they import types alone " +
        '(clients/cli/daemon/ holds the commands that run the daemon itself)',
      severity: 'error',
      from: { path: '^src/clients/', pathNot: '^src/clients/cli/daemon/' },
      to: { path: '^src/', pathNot: '^src/(clients|shared)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'api-client-is-isomorphic',
      comment: 'the API client runs in the browser too: no Node built-ins',
      severity: 'error',
      from: { path: '^src/clients/api-client/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'console-through-the-api-client',
      comment: "the web console reads the server through the API client, shared/ and the server's types",
      severity: 'error',
      from: { path: '^console/src/' },
      to: {
        path: '^src/',
        pathNot: '^src/(clients/api-client|shared)/',
        dependencyTypesNot: ['type-only'],
      },
    },
  ],
  options: {
    // TypeScript 7 has no compiler API yet; swc parses the sources and keeps type-only imports apart.
    parser: 'swc',
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^src/platform/db/migrations/', '\\.d\\.ts$'] },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.json'] },
  },
};
