/**
 * The layer rules (docs/conventions.md, "Layers"), checked by `npm run lint:deps` as part of
 * `npm test`: app/ → lib/<domain> → lib/db, nothing imports upwards, and no import cycles.
 * Type-only imports count like any other (`tsPreCompilationDeps`): a type cycle is still two
 * modules that cannot be read or moved one without the other.
 *
 * Under lib/, infrastructure sits below and above the domain folders: its foundation part (the
 * modules INFRASTRUCTURE matches, but not TOP) may be imported by any domain and imports no
 * domain; its top part (TOP) may import domains and is imported by no domain. Everything else
 * under lib/ is a domain folder, and `scripts/check-folder-cycles.ts` (run by `npm run lint:deps`
 * after this config) fails on any import cycle between domain folders; it reads these two lists
 * from the rules named below.
 */

/** Leaf modules every layer may use, lib/db included; they import nothing of ours but each other. */
const LEAVES = ['^lib/(clock|config|config-parse|config-schema|durations|ids|log|net|passwords|secrets)\\.ts$', '^lib/http/errors\\.ts$'];

/** Infrastructure folders and lib/'s own files: foundation, except the TOP modules among them. */
const INFRASTRUCTURE = ['^lib/[^/]+\\.ts$', '^lib/(db|events|http|jobs|metrics|money)/'];

/**
 * The top of lib/: the route wrappers (they authenticate through lib/auth, log through
 * lib/request-logs), the event catalog (it names every domain's response schemas), the worker
 * and its task registry, the registry of state machines, the OpenAPI document, sample data, the
 * seed and the Next.js glue.
 */
const TOP = [
  '^lib/http/(api-route|public-route|route-core|session-route)\\.ts$',
  '^lib/events/schemas\\.ts$',
  '^lib/jobs/(worker\\.ts$|money-move-kinds\\.ts$|tasks/)',
  '^lib/(openapi|sample-data|web)/',
  '^lib/(seed|state-machines)\\.ts$',
];

/** Next.js glue: the only code under lib/ that may import next (or next-intl's Next.js parts). */
const NEXT_GLUE = ['^lib/web/', '^lib/i18n/page-locale\\.ts$', '^lib/i18n/request-config\\.ts$'];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'No import cycles (module level, type-only imports included): move the shared piece to the module that owns it, or split out a lower-level file.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'lib-not-to-app',
      severity: 'error',
      comment: 'lib/ is below the pages, components and entry points: it never imports them.',
      from: { path: '^lib/' },
      to: { path: '^(app|components|scripts|tests|e2e|bench|packages)/' },
    },
    {
      name: 'db-is-the-bottom',
      severity: 'error',
      comment: 'lib/db (client, schema, paging, phases) imports no other folder of lib/; only the leaf modules.',
      from: { path: '^lib/db/' },
      to: { path: '^lib/', pathNot: ['^lib/db/', ...LEAVES] },
    },
    {
      name: 'leaves-import-only-leaves',
      severity: 'error',
      comment: 'The leaf modules may be imported from anywhere, lib/db included, so they import only each other.',
      from: { path: LEAVES },
      to: { path: '^(lib|app|components)/', pathNot: LEAVES },
    },
    {
      name: 'infrastructure-foundation-imports-no-domain',
      severity: 'error',
      comment:
        'Infrastructure below the domains (errors, schemas, operation contracts, idempotency, recordEvent, enqueueJob, db, money) imports only infrastructure: move what it needs from a domain down, or the importing module to TOP.',
      from: { path: INFRASTRUCTURE, pathNot: TOP },
      to: { path: '^lib/', pathNot: INFRASTRUCTURE },
    },
    {
      name: 'top-imported-by-no-domain',
      severity: 'error',
      comment:
        'The top of lib/ (route wrappers, event catalog, worker tasks, OpenAPI, sample data, seed, Next.js glue) may import domains, so only app/, scripts and other TOP modules import it.',
      from: { path: '^lib/', pathNot: TOP },
      to: { path: TOP },
    },
    {
      name: 'domain-not-to-next',
      severity: 'error',
      comment: 'Domain code never imports next/* (or next-intl/*, which wraps it); only the Next.js glue does.',
      from: { path: '^lib/', pathNot: NEXT_GLUE },
      to: { path: '^node_modules/(next|next-intl)/' },
    },
    {
      name: 'domain-not-to-next-glue',
      severity: 'error',
      comment: 'Domain code never imports the Next.js glue either (it would bring next/* in through it).',
      from: { path: '^lib/', pathNot: NEXT_GLUE },
      to: { path: NEXT_GLUE },
    },
    {
      name: 'components-not-to-db',
      severity: 'error',
      comment: 'Components render what a page loaded through domain functions; they never reach the database.',
      from: { path: '^components/' },
      to: { path: '^lib/db/' },
    },
  ],
  options: {
    doNotFollow: { path: '^node_modules/' },
    exclude: { path: '^(\\.next|packages/sdk/dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
