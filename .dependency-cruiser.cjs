/**
 * The import boundaries of the front door (docs/architecture.md, "Import boundaries"), checked by
 * dependency-cruiser in `npm test` (tests/architecture/boundaries.test.ts) and by `npm run deps:check`.
 * Each rule's name says what it forbids; a wrong import fails with that name.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'engine-imports-no-app',
      comment: 'The engine knows the app only through the injected EngineHost (src/engine/host.ts).',
      severity: 'error',
      from: { path: '^src/engine/' },
      to: { path: '^src/(app|mfa)/' },
    },
    {
      name: 'engine-imports-no-widgets',
      comment: 'Widgets and content components are registered by name and handed in by the host, never imported by the engine.',
      severity: 'error',
      from: { path: '^src/engine/' },
      to: { path: '^widgets/' },
    },
    {
      name: 'engine-calls-operations-through-the-host',
      comment: 'The engine calls operations with host.call; it imports nothing of the operation client or its bot check.',
      severity: 'error',
      from: { path: '^src/engine/' },
      to: { path: '^src/api/' },
    },
    {
      name: 'engine-knows-no-screen',
      comment: "The engine interprets any screen it is given; the route table and the screen modules are the app's to load.",
      severity: 'error',
      from: { path: '^src/engine/' },
      to: { path: '^(screens/|src/generated/(catalogue|screens/))' },
    },
    {
      name: 'api-client-knows-no-screens',
      comment: 'The operation client knows operations (schemas/api), not the engine, the app, the widgets or the screens.',
      severity: 'error',
      from: { path: '^src/api/' },
      to: { path: '^(src/(engine|app|mfa|ui)/|widgets/|screens/|studio/|src/generated/(catalogue|screens/))' },
    },
    {
      name: 'ui-imports-no-engine-app-or-widgets',
      comment: 'src/ui holds presentational components the engine, the app and the widgets use: it imports none of them.',
      severity: 'error',
      from: { path: '^src/ui/' },
      to: { path: '^(src/(engine|app|api|mfa|platform)/|widgets/|studio/|server/)' },
    },
    {
      name: 'lib-imports-nothing-of-the-project',
      comment: 'src/lib holds dependency-free helpers (JSON pointers) every layer may use.',
      severity: 'error',
      from: { path: '^src/lib/' },
      to: { path: '^(src/(?!lib/)|widgets/|studio/|server/|screens/)' },
    },
    {
      name: 'widgets-import-no-app',
      comment: 'Widgets get what the app knows (safe URLs, the screen API) from the engine host, not from src/app.',
      severity: 'error',
      from: { path: '^widgets/' },
      to: { path: '^(src/app/|studio/)' },
    },
    {
      name: 'server-shares-only-contracts-and-data',
      comment:
        "The server reads schemas/ (the API contract, the business lists) and the build's output, and imports no front-end code (generated API types aside).",
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^(src/|widgets/|studio/|screens/)', pathNot: '^src/generated/api-types\\.ts$' },
    },
    {
      name: 'front-end-imports-no-server',
      comment: 'The browser bundles never pull server code.',
      severity: 'error',
      from: { path: '^(src|widgets|studio)/' },
      to: { path: '^server/' },
    },
    {
      name: 'app-imports-no-studio',
      comment: 'The dev-only studio is its own bundle: the visitor app does not grow by a byte of it.',
      severity: 'error',
      from: { path: '^(src|widgets)/' },
      to: { path: '^studio/' },
    },
    {
      name: 'no-unresolvable-import',
      comment: 'An import that resolves to nothing is a typo or a missing file.',
      severity: 'error',
      from: { path: '^(src|widgets|studio|server|scripts)/' },
      to: { couldNotResolve: true, pathNot: '^(virtual:|node:)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|build|packages/[^/]+/(dist|node_modules))/' },
    // Type-only imports count too: a type is a dependency on its module's layer.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    moduleSystems: ['es6', 'cjs'],
  },
};
