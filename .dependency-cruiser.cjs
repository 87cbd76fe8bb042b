/**
 * The import boundaries of the front door (docs/architecture.md, "Import boundaries"), checked by
 * dependency-cruiser in `npm test` (tests/architecture/boundaries.test.ts) and by `npm run deps:check`.
 * Each rule's name says what it forbids; a wrong import fails with that name. Static and dynamic
 * imports (`await import(...)`) and type-only imports all count; packages/ is scanned too.
 */
const FRONT_END = '^(src|widgets|studio)/';
/** Everything of ours that is not a package of its own. */
const OURS = '^(src|widgets|studio|server|scripts|tooling|catalogue)/';
/** The app's own parts the studio, the engine, the widgets and the lower layers may not reach into: the app and the hosts' common ground. */
const APP = 'src/(app|host|mfa)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular-imports',
      comment:
        'Modules import each other in one direction only: a cycle ties layers together (src/platform and src/app, widgets/content and src/mfa were such).',
      severity: 'error',
      from: { path: OURS },
      to: { circular: true },
    },
    {
      name: 'no-folder-cycles',
      comment:
        'Folders import each other in one direction only (src/app, widgets/content and src/mfa were a loop: the modal now builds on src/host). server/ is left out until its data layer (issue 41 server split) ends the server/db and server/services loop.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^(src|widgets|studio|scripts|tooling|catalogue|packages)(/|$)' },
      to: { circular: true },
    },
    {
      name: 'engine-imports-no-app',
      comment: "The engine knows the app only through the injected EngineHost (src/engine/host.ts), the app's names included (its vocabulary).",
      severity: 'error',
      from: { path: '^src/engine/' },
      to: { path: '^src/(app|host|mfa|platform)/' },
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
      name: 'engine-has-one-door',
      comment: "Outside the engine, code imports it through src/engine/index.ts only (the engine's own tests may reach its modules).",
      severity: 'error',
      from: { path: '^(src|widgets|studio|scripts|catalogue)/', pathNot: '^src/engine/' },
      to: { path: '^src/engine/', pathNot: '^src/engine/index\\.ts$' },
    },
    {
      name: 'api-client-knows-no-screens',
      comment: 'The operation client knows operations (schemas/api), not the engine, the app, the widgets or the screens.',
      severity: 'error',
      from: { path: '^src/api/' },
      to: { path: '^(src/(engine|app|host|mfa|ui|platform)/|widgets/|screens/|studio/|src/generated/(catalogue|screens/))' },
    },
    {
      name: 'ui-imports-no-engine-app-or-widgets',
      comment: 'src/ui holds presentational components the engine, the app and the widgets use: it imports none of them.',
      severity: 'error',
      from: { path: '^src/ui/' },
      to: { path: '^(src/(engine|app|host|api|mfa|platform)/|widgets/|studio/|server/)' },
    },
    {
      name: 'platform-imports-no-app',
      comment: 'src/platform holds modules the surrounding product uses; the app uses them, not the other way round.',
      severity: 'error',
      from: { path: '^src/platform/' },
      to: { path: '^(src/(app|host|mfa)/|widgets/|studio/)' },
    },
    {
      name: 'widgets-import-no-app',
      comment: 'Widgets get what the app knows (safe URLs, the screen API) from the engine host, not from src/app.',
      severity: 'error',
      from: { path: '^widgets/' },
      to: { path: '^(src/(app|host)/|studio/)' },
    },
    {
      name: 'widgets-call-operations-through-the-host',
      comment: "A widget calls the server with host.call (the host's client, bot check and retries), not with the operation client.",
      severity: 'error',
      from: { path: '^widgets/' },
      to: { path: '^src/(api/|generated/operations)' },
    },
    {
      name: 'catalogue-imports-no-app',
      comment:
        'catalogue/ (the screen language and its check) stands alone: the engine, the build, the studio and the server import it, it imports none of them.',
      severity: 'error',
      from: { path: '^catalogue/' },
      to: { path: '^(src|widgets|studio|server|scripts)/' },
    },
    {
      name: 'catalogue-language-runs-in-the-browser',
      comment: 'catalogue/language is what the engine shares with the check: no Node built-ins, nothing of the (Node) check.',
      severity: 'error',
      from: { path: '^catalogue/language/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'catalogue-language-imports-no-check',
      comment: 'catalogue/language is what the engine shares with the check: the check builds on it, not the other way round.',
      severity: 'error',
      from: { path: '^catalogue/language/' },
      to: { path: '^catalogue/check/' },
    },
    {
      name: 'server-shares-only-contracts-and-data',
      comment:
        "The server reads schemas/ (the API contract, the business lists), the catalogue module and the build's output, and imports no front-end code (generated API types aside).",
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^(src/|widgets/|studio/|screens/)', pathNot: '^src/generated/api-types\\.ts$' },
    },
    {
      name: 'server-imports-no-scripts',
      comment:
        'The server reaches no command line of scripts/, not even through other modules: the build work its studio starts is tooling/ (imported, not run by path), the rest catalogue/.',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^scripts/', reachable: true },
    },
    {
      name: 'tooling-imports-no-scripts',
      comment: 'tooling/ is the build work as modules, imported by scripts/ (its command lines) and the server: it imports no command line.',
      severity: 'error',
      from: { path: '^tooling/' },
      to: { path: '^scripts/' },
    },
    {
      name: 'security-imports-no-page-serving',
      comment:
        'server/security (headers, CSRF, rate limits) works on every answer and knows no page: not even through other modules does it reach server/spa/ (what both need, e.g. isApiPath, is in a small module of its own).',
      severity: 'error',
      from: { path: '^server/security/' },
      to: { path: '^server/spa([-./]|$)', reachable: true },
    },
    {
      name: 'vite-config-imports-build-code-only',
      comment:
        "The Vite configs' own module graph (the config loader bundles it before any build) is build code: never the server or the app's sources, not even through other modules.",
      severity: 'error',
      from: { path: '^vite(\\.studio)?\\.config\\.ts$' },
      to: { path: '^(server|src|widgets|studio)/', reachable: true },
    },
    {
      name: 'studio-reaches-the-app-through-its-entry',
      comment:
        "The dev studio uses the app through src/app/studio-entry.ts only (its preview's router, host parts, site facts, themes, languages): one list of what it leans on.",
      severity: 'error',
      from: { path: '^studio/' },
      to: { path: `^${APP}`, pathNot: '^src/app/studio-entry\\.ts$' },
    },
    {
      name: 'server-never-reaches-the-engine',
      comment: 'Not even through other modules: the studio check the server runs is catalogue/check, which needs nothing of the engine.',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^src/engine/', reachable: true },
    },
    {
      name: 'only-the-data-layer-reaches-the-database',
      comment:
        "The database drivers (better-sqlite3, pg) and the migrations' schema builder (kysely) are server/db/'s: everything else reads and writes through its stores (docs/data-layer.md).",
      severity: 'error',
      from: { path: OURS, pathNot: '^server/db/' },
      to: { path: 'node_modules/(better-sqlite3|pg|kysely)/' },
    },
    {
      name: 'opentelemetry-is-server-ops-otel-only',
      comment:
        'OpenTelemetry loads only when OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/deploy.md, "Traces"): server/ops/otel.ts alone imports its packages; the rest of the server traces through ops/tracing.ts, and the browser sends traceparent with a few lines (src/api/trace-context.ts).',
      severity: 'error',
      from: { path: OURS, pathNot: '^server/ops/otel\\.ts$' },
      to: { path: 'node_modules/@opentelemetry/' },
    },
    {
      name: 'opentelemetry-loads-on-demand',
      comment:
        'server/ops/otel.ts is imported dynamically, by ops/tracing.ts, and only when traces are on: a static import would load OpenTelemetry at every start.',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^server/ops/otel\\.ts$', dynamic: false },
    },
    {
      name: 'data-layer-imports-no-server-code',
      comment:
        'Services, routes and commands call the stores of server/db/, never the other way round (server/db and server/services were a loop). Hashing (server/crypto/) is a leaf every layer may import.',
      severity: 'error',
      from: { path: '^server/db/' },
      to: { path: '^server/', pathNot: '^server/(db|crypto)/' },
    },
    {
      name: 'front-end-imports-no-server',
      comment: 'The browser bundles never pull server code.',
      severity: 'error',
      from: { path: FRONT_END },
      to: { path: '^server/' },
    },
    {
      name: 'app-translates-with-its-own-translator',
      comment:
        'The app and its widgets read texts with src/lib/i18n.tsx (its provider holds them); i18next stays with the studio. A widget on react-i18next finds no instance and shows raw keys.',
      severity: 'error',
      from: { path: '^(src|widgets)/', pathNot: '^src/app/i18n-options[.]ts$' },
      to: { path: 'node_modules/(react-i18next|i18next)/' },
    },
    {
      name: 'app-imports-no-studio',
      comment: 'The dev-only studio is its own bundle: the visitor app does not grow by a byte of it.',
      severity: 'error',
      from: { path: '^(src|widgets)/' },
      to: { path: '^studio/' },
    },
    {
      name: 'packages-stand-alone',
      comment: 'A package of packages/ is published on its own: it imports nothing of the rest of the repository.',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: OURS },
    },
    {
      name: 'no-unresolvable-import',
      comment: 'An import that resolves to no file is a typo or a missing file.',
      severity: 'error',
      from: { path: '^(src|widgets|studio|server|scripts|tooling|catalogue|packages)/|^vite(\\.studio)?\\.config\\.ts$' },
      to: { couldNotResolve: true, pathNot: '^(virtual:|node:)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // node_modules is not followed (doNotFollow) but stays in the graph: rules about packages need its modules.
    exclude: { path: '^(dist|build|packages/[^/]+/(dist|node_modules|test/fixtures))/' },
    // Type-only imports count too: a type is a dependency on its module's layer.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    // es6 covers static and dynamic import(); cjs covers require().
    moduleSystems: ['es6', 'cjs'],
  },
};
