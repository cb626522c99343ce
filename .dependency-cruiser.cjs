/*
 * The architecture on one page: which folder may import which (ADR 0056). `npm run lint` runs this
 * with dependency-cruiser and fails on any import that breaks a rule below, so a back edge never lands.
 *
 * Web (apps/web/src), top to bottom; a layer imports only the layers below it:
 *
 *   test/        helpers for tests: may import anything; only tests import it
 *   app/         composition only: main.tsx, providers, the router, the shell
 *   routes/      one thin file per screen: validate params, load, compose features
 *   features/x/  one area each; others use it only through its public entry features/x/index.ts
 *   components/  design-system pieces and the generic record screens
 *   lib/         leaf modules with no app wiring: api client, hub hooks, route table, query client, formats
 *
 * API (apps/api/src): db/ is the foundation (connection, schema, migrations, embedded server) and
 * imports nothing above it; seed/ (demo company, scale seeding) stands above features/; the shared
 * contracts (packages/contracts) import nothing from the apps.
 *
 * To add a rule: add an entry to `forbidden` with a `comment` that says the rule in words (it is
 * what the lint prints), run `npm run lint`, and fix or explain what it reports. A test
 * (scripts/dependency-rules.test.ts) checks that a back edge fails and that the tree is clean.
 */

const WEB = '^apps/web/src';
/** Test code: test files, fixtures and test helpers, wherever they live. */
const TEST_CODE = ['[.]test[.]tsx?$', '(^|/)test/', '(^|/)test-[^/]+[.]tsx?$', '-fixtures[.]ts$'];

module.exports = {
  forbidden: [
    {
      name: 'web-lib-is-a-leaf',
      comment:
        'lib/ holds leaf modules with no app wiring: it imports nothing from components/, features/, routes/ or app/.',
      severity: 'error',
      from: { path: `${WEB}/lib/` },
      to: { path: `${WEB}/(components|features|routes|app)/` },
    },
    {
      name: 'web-components-below-features',
      comment:
        'components/ (design system, generic record screens) imports only lib/: never features/, routes/ or app/.',
      severity: 'error',
      from: { path: `${WEB}/components/` },
      to: { path: `${WEB}/(features|routes|app)/` },
    },
    {
      name: 'web-features-below-routes',
      comment:
        'features/ import components/ and lib/ (and other features through their index.ts), never routes/ or app/: a screen composes features, not the other way round.',
      severity: 'error',
      from: { path: `${WEB}/features/` },
      to: { path: `${WEB}/(routes|app)/` },
    },
    {
      name: 'web-routes-below-app',
      comment: 'routes/ (one thin file per screen) never import app/: app/ only composes the routes.',
      severity: 'error',
      from: { path: `${WEB}/routes/` },
      to: { path: `${WEB}/app/` },
    },
    {
      name: 'web-feature-public-entry',
      comment:
        'A feature uses another feature only through its public entry features/<area>/index.ts, never its inner files.',
      severity: 'error',
      from: { path: `${WEB}/features/([^/]+)/` },
      to: {
        path: `${WEB}/features/[^/]+/`,
        pathNot: [`${WEB}/features/$1/`, `${WEB}/features/[^/]+/index[.]ts$`],
      },
    },
    {
      name: 'test-code-only-from-tests',
      comment:
        'Test helpers and fixtures (src/test/, */test/, *-fixtures.ts, test-*.ts, *.test.ts) are imported by tests only, never by the app.',
      severity: 'error',
      from: { pathNot: TEST_CODE },
      to: { path: TEST_CODE },
    },
    {
      name: 'no-circular',
      comment:
        'No import cycles: a cycle makes two modules one and hides which of them is the lower layer. A cycle closed only by a type import or by a lazily loaded chunk (import()) runs no module twice and is allowed.',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only', 'dynamic-import'] } },
    },
    {
      name: 'api-db-is-the-foundation',
      comment:
        'apps/api/src/db/ (connection, schema, migrations, embedded server) imports nothing from features/, seed/, http/, plugins/, hub/ or jobs/: everything else stands on it.',
      severity: 'error',
      from: { path: '^apps/api/src/db/' },
      to: { path: '^apps/api/src/(features|seed|http|plugins|hub|jobs)/' },
    },
    {
      name: 'api-features-below-seed',
      comment:
        'apps/api/src/features/ never import seed/: the seeding calls the features, not the other way round.',
      severity: 'error',
      from: { path: '^apps/api/src/features/' },
      to: { path: '^apps/api/src/seed/' },
    },
    {
      name: 'contracts-import-no-app',
      comment: 'packages/contracts (schemas shared by web and API) imports nothing from apps/.',
      severity: 'error',
      from: { path: '^packages/contracts/' },
      to: { path: '^apps/' },
    },
  ],
  options: {
    // Only the project's own files: what node_modules imports is not ours to check.
    includeOnly: '^(apps|packages)/',
    exclude: { path: '(^|/)(node_modules|dist|build)/' },
    doNotFollow: { path: 'node_modules' },
    // Type-only imports are edges too: `import type { RouteName } from '../app/…'` ties the layers as
    // much as a value import does.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
  },
};
