/**
 * The layer rules (docs/conventions.md, "Layers"), checked by `npm run lint:deps` as part of
 * `npm test`: app/ → lib/server → lib/<domain> → the foundation, nothing imports upwards, and
 * no import cycles. Type-only imports count like any other (`tsPreCompilationDeps`): a type
 * cycle is still two modules that cannot be read or moved one without the other.
 *
 * The folders of lib/ are the layers: the foundation (lib/*.ts, db, events, http, jobs, metrics,
 * money) imports no domain; lib/server (route wrappers, the worker and its tasks, the event
 * catalog, OpenAPI, sample data, the seed, the Next.js glue) sits on top and no other part of
 * lib/ imports it; every other folder is a domain. `scripts/check-folder-cycles.ts` (run by
 * `npm run lint:deps` after this config) fails on any import cycle between folders of lib/, so
 * no folder holds modules of two layers.
 */

/** Leaf modules every layer may use, lib/db included; they import nothing of ours but each other. */
const LEAVES = ['^lib/(clock|config|config-parse|config-schema|durations|errors|ids|log|net|passwords|secrets)\\.ts$'];

/** The foundation below the domains: lib/'s own files and the infrastructure folders. */
const FOUNDATION = ['^lib/[^/]+\\.ts$', '^lib/(db|events|http|jobs|metrics|money)/'];

/** Everything that sits on top of the domains. */
const TOP = ['^lib/server/'];

/** Next.js glue: the only code under lib/ that may import next (or next-intl's Next.js parts). */
const NEXT_GLUE = ['^lib/server/web/'];

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
      name: 'foundation-imports-no-domain',
      severity: 'error',
      comment:
        'The foundation below the domains (errors, schemas, operation contracts, idempotency, recordEvent, enqueueJob, db, money) imports only the foundation: move what it needs from a domain down, or the importing module up to lib/server.',
      from: { path: FOUNDATION },
      to: { path: '^lib/', pathNot: FOUNDATION },
    },
    {
      name: 'server-imported-by-no-domain',
      severity: 'error',
      comment:
        'lib/server (route wrappers, event catalog, worker tasks, OpenAPI, sample data, seed, Next.js glue) may import domains, so only app/, components/, scripts and lib/server itself import it.',
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
      name: 'components-not-to-app',
      severity: 'error',
      comment:
        'components/ holds UI any page may use; a form bound to one server action lives beside its page in app/ (or beside its actions when two pages share it).',
      from: { path: '^components/' },
      to: { path: '^app/' },
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
