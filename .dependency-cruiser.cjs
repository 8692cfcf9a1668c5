/**
 * The layer rules (docs/conventions.md, "Layers"), checked by `npm run lint:deps` as part of
 * `npm test`: app/ → lib/<domain> → lib/db, nothing imports upwards, and no import cycles.
 * Type-only imports count like any other (`tsPreCompilationDeps`): a type cycle is still two
 * modules that cannot be read or moved one without the other.
 */

/** Leaf modules every layer may use, lib/db included; they import nothing of ours but each other. */
const FOUNDATION = ['^lib/(clock|config|config-schema|durations|ids|log|net)\\.ts$', '^lib/http/errors\\.ts$'];

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
      comment: 'lib/db (client, schema, paging, phases) imports no domain folder; only the foundation modules.',
      from: { path: '^lib/db/' },
      to: { path: '^lib/', pathNot: ['^lib/db/', ...FOUNDATION] },
    },
    {
      name: 'foundation-is-a-leaf',
      severity: 'error',
      comment: 'The foundation modules may be imported from anywhere, so they import only each other.',
      from: { path: FOUNDATION },
      to: { path: '^(lib|app|components)/', pathNot: FOUNDATION },
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
