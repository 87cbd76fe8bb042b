import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Ajv from 'ajv';
import standaloneCode from 'ajv/dist/standalone';
import { compile } from 'json-schema-to-typescript';
import { compileSchemaValidatorsCode } from '@rjsf/validator-ajv8/compileSchemaValidators';
import addValidators, { DEFAULT_FORMATS_MODULE, formatNames } from '@frontdoor/validators';
import { checkCodeKeys, checkProject, formatProblem, SERVER_ONLY_LOCALE_FILES, type Project } from '../catalogue/check/check';
import { inlineRefs } from '../catalogue/check/refs';
import { rjsfPartsOf } from '../catalogue/check/rjsf-parts';
import { expandScreen } from '../catalogue/check/lists';
import { loadVocabulary } from '../catalogue/check/vocabulary';
import type { ScreenFile } from '../catalogue/language/types';
import { compileLocale, type Tree } from '../catalogue/language/icu';
import { PSEUDO_LOCALE, pseudoLocale } from '../catalogue/language/pseudo';

/**
 * Build-time compilation: checks the catalogue, then writes src/generated/ — screen modules
 * with their precompiled rjsf validators, the route table, merged locales, the operation table
 * with precompiled response validators (one lazy module each), and TypeScript types of the API. The browser never
 * compiles a schema.
 */
export class CatalogueError extends Error {}

/** The files this run wrote (or found as they should be): the rest of src/generated is stale. */
const written = new Set<string>();

/**
 * Writes a file only when its text changed: `npm test` type-checks src/generated while the build
 * generates it again, and an unchanged file is never rewritten (or removed) under the type checker.
 */
const write = (file: string, text: string) => {
  written.add(resolve(file));
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return;
  mkdirSync(resolve(file, '..'), { recursive: true });
  writeFileSync(file, text);
};

/** Removes what an earlier run generated and this one did not (a screen or language taken out). */
function pruneStale(dir: string): void {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = resolve(dir, entry.name);
    if (entry.isDirectory()) pruneStale(path);
    else if (!written.has(path)) rmSync(path);
  }
  if (readdirSync(dir).length === 0) rmSync(dir, { recursive: true });
}

/**
 * Standalone code reads a format as `require("@frontdoor/validators/formats")["formats"].email`; a
 * CommonJS require keeps every format of that module (URL, IPv6, paths ...) in the screen's chunk.
 * Point each one at its own module instead (`@frontdoor/validators/formats/<camelName>` exports
 * <camelName>), so a chunk carries only the formats its schemas use.
 */
function requireFormatsOneByOne(code: string): string {
  const prefix = `require(${JSON.stringify(DEFAULT_FORMATS_MODULE)})["formats"]`;
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`${escape(prefix)}(?:\\.([A-Za-z_$][\\w$]*)|\\["([^"]+)"\\])`, 'g');
  const known = new Set<string>(formatNames);
  return code.replace(pattern, (whole: string, dotted?: string, bracketed?: string) => {
    const name = dotted ?? bracketed ?? '';
    if (!known.has(name)) return whole;
    const camel = name.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
    return `require(${JSON.stringify(`${DEFAULT_FORMATS_MODULE}/${camel}`)}).${camel}`;
  });
}

const ANNOTATIONS = new Set(['description', 'title', 'examples', '$comment']);
const DATA_KEYWORDS = new Set(['default', 'const', 'enum']);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas']);

/** A schema minus its annotations (ajv standalone copies schema objects into the browser code). */
function withoutAnnotations(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutAnnotations);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (ANNOTATIONS.has(key)) continue;
    if (DATA_KEYWORDS.has(key)) out[key] = value;
    // Maps of name -> schema: the names stay (a property may be called "title"), the schemas are stripped.
    else if (SCHEMA_MAPS.has(key) && value && typeof value === 'object') {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, withoutAnnotations(sub)]));
    } else out[key] = withoutAnnotations(value);
  }
  return out;
}

/** The names of the shared outcome blocks a screen's calls include. */
function includedBlocks(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((item) => includedBlocks(item, out));
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'include' && Array.isArray(value)) value.forEach((name) => typeof name === 'string' && out.add(name));
      else if (key !== 'schema' && key !== 'uiSchema') includedBlocks(value, out);
    }
  }
  return out;
}

export async function generate(rootDir = process.cwd()): Promise<Project> {
  const root = resolve(rootDir);
  // Texts missing only in some languages are pending translations: they fall back to en-us and do not stop the build.
  const { project, problems: found, pending } = checkProject({ root });
  const problems = [...found, ...checkCodeKeys(root, project)];
  if (pending.length > 0)
    console.log(`${pending.length} text(s) pending translation (visitors in those languages see the English text): ${pending.map((p) => p.key).join(', ')}`);
  if (problems.length > 0) {
    throw new CatalogueError(`The screen catalogue has ${problems.length} problem(s):\n${problems.map((p) => `  ${formatProblem(p)}`).join('\n')}`);
  }
  const out = join(root, 'src/generated');
  written.clear();

  // Screens: one module per screen, so each route is its own chunk.
  const loaders: string[] = [];
  const routes: Array<{ path: string; screenId: string; title: string; layout?: string; route?: { context?: Record<string, unknown>; title?: string } }> = [];
  for (const { screen, schemas } of project.screens) {
    // Business lists expanded, each step's schema with its $refs inlined (catalogue/check/lists.ts).
    // Each step's schema without annotations (descriptions, titles: the UI schema's i18n keys label the
    // fields), the same object for the precompiled validator and for rjsf, whose lookup hashes it.
    const shippedSchemas = Object.fromEntries(Object.entries(schemas).map(([step, schema]) => [step, withoutAnnotations(schema) as Record<string, unknown>]));
    const resolved = expandScreen(screen, shippedSchemas, project.lists);
    // The shared outcomes with only the blocks this screen includes (catalogue/language/outcomes.ts applies them).
    const included = includedBlocks(screen);
    const { defaults, visitorDefaults, unhandled, blocks } = project.outcomes;
    const outcomes = { defaults, visitorDefaults, unhandled, blocks: Object.fromEntries(Object.entries(blocks).filter(([name]) => included.has(name))) };
    const imports: string[] = [];
    const entries: string[] = [];
    const rjsfFields = new Set<string>();
    const rjsfWidgets = new Set<string>();
    // A form with allOf needs rjsf's merge of it, which the browser build leaves out otherwise (src/engine/form/all-of.ts).
    const allOf = Object.values(shippedSchemas).some((schema) => JSON.stringify(schema).includes('"allOf"'));
    for (const [stepName, schema] of Object.entries(shippedSchemas)) {
      const step = resolved.steps[stepName];
      const parts = rjsfPartsOf(schema, step?.uiSchema);
      parts.fields.forEach((name) => rjsfFields.add(name));
      parts.widgets.forEach((name) => rjsfWidgets.add(name));
      const code = compileSchemaValidatorsCode(schema, { ajvFormatOptions: false, extenderFn: (ajv) => addValidators(ajv) });
      const name = `${screen.id}.${stepName}.validators.cjs`;
      write(join(out, 'screens', name), `/* Generated by scripts/generate.ts from screens/${screen.id}.json. Do not edit. */\n${requireFormatsOneByOne(code)}`);
      // A form is validated when the visitor acts, so its validator loads after it is shown; rjsf asks
      // it while rendering only for conditional schemas, which bring it with the screen.
      if (/"(if|oneOf|anyOf|dependencies)"/.test(JSON.stringify(schema))) {
        imports.push(`import * as ${stepName}Validators from './${name}';`);
        entries.push(`${stepName}: ${stepName}Validators`);
      } else entries.push(`${stepName}: () => import('./${name}')`);
    }
    // The editor's "$schema" and the notes for product managers are never shown: not in the browser's chunk.
    const { $schema: _schema, description: _notes, ...shipped } = resolved as ScreenFile & { $schema?: string };
    write(join(out, 'screens', `${screen.id}.json`), JSON.stringify(shipped));
    write(
      join(out, 'screens', `${screen.id}.ts`),
      [
        `/* Generated by scripts/generate.ts from screens/${screen.id}.json. Do not edit. */`,
        `import type { ScreenFile, ScreenModule, SharedOutcomes } from '../../engine';`,
        `import screen from './${screen.id}.json';`,
        ...imports,
        // rjsf parts the browser registry defers but this screen renders: they come with its chunk.
        ...[...rjsfFields].map((name) => `import ${name} from '@rjsf/core/lib/components/fields/${name}.js';`),
        ...[...rjsfWidgets].map((name) => `import ${name} from '@rjsf/core/lib/components/widgets/${name}.js';`),
        ...(allOf ? [`import mergeAllOf from '@rjsf/utils/lib/schema/shallowAllOfMerge.js';`] : []),
        `const module: ScreenModule = {`,
        `  screen: screen as unknown as ScreenFile,`,
        `  outcomes: ${JSON.stringify(outcomes)} as unknown as SharedOutcomes,`,
        `  validators: { ${entries.join(', ')} },`,
        ...(rjsfFields.size + rjsfWidgets.size > 0 || allOf
          ? [`  rjsf: { fields: { ${[...rjsfFields].join(', ')} }, widgets: { ${[...rjsfWidgets].join(', ')} }${allOf ? ', mergeAllOf' : ''} },`]
          : []),
        `};`,
        `export default module;`,
        '',
      ].join('\n'),
    );
    loaders.push(`  ${JSON.stringify(screen.id)}: () => import('./screens/${screen.id}').then((m) => m.default),`);
    // The card's heading while the screen loads (server/spa.ts's static page, ScreenRoute): the first step's title, else the screen's.
    // A route's own title names the page and the first step on that route.
    const firstTitle = screen.steps[screen.initialStep]?.title;
    const title = typeof firstTitle === 'string' ? firstTitle : screen.title;
    for (const route of screen.routes ?? []) {
      // What the runtime needs of the route beyond its path: its context and its own title.
      const own = { ...(route.context ? { context: route.context } : {}), ...(route.title ? { title: route.title } : {}) };
      routes.push({
        path: route.path,
        screenId: screen.id,
        title: route.title ?? title,
        ...(screen.layout ? { layout: screen.layout } : {}),
        ...(Object.keys(own).length > 0 ? { route: own } : {}),
      });
    }
  }
  write(
    join(out, 'catalogue.ts'),
    [
      '/* Generated by scripts/generate.ts from screens/. Do not edit. */',
      "import type { RouteSpec, ScreenModule } from '../engine';",
      "export interface CatalogueRoute { path: string; screenId: string; title: string; layout?: 'card' | 'wide'; route?: Omit<RouteSpec, 'path'> }",
      `export const routes: CatalogueRoute[] = ${JSON.stringify(routes, null, 2)};`,
      'export const loaders: Record<string, () => Promise<ScreenModule>> = {',
      ...loaders,
      '};',
      '',
    ].join('\n'),
  );

  // The same route table as data, for the build's preload map and static page shells (scripts/vite-static.ts).
  write(join(out, 'routes.json'), JSON.stringify(routes));

  // Business lists (schemas/defs/*.json with an enum) for the app: only the values, no descriptions.
  // One export per list, so a bundle carries only the lists it uses.
  write(
    join(out, 'lists.ts'),
    [
      '/* Generated by scripts/generate.ts from schemas/defs/. Do not edit. */',
      ...Object.entries(project.lists).map(([name, values]) => `export const ${name} = ${JSON.stringify(values)} as const;`),
      // A list's "default" (language: the fallback language; theme: the theme of an unbranded site).
      ...Object.entries(project.listDefaults).map(([name, value]) => `export const ${name}Default = ${JSON.stringify(value)} as const;`),
      '',
    ].join('\n'),
  );

  // The hosts' names (src/app/vocabulary.json, …) without their descriptions, for code that needs the
  // names at run time (the page's lazy actions): one export per host and part, e.g. appActions.
  write(
    join(out, 'vocabulary.ts'),
    [
      "/* Generated by scripts/generate.ts from the hosts' vocabulary files. Do not edit. */",
      ...loadVocabulary().hosts.flatMap(({ file, names }) => {
        const host = file.split('/').at(-2) ?? '';
        return Object.entries(names).map(([part, list]) => `export const ${host}${part[0]?.toUpperCase()}${part.slice(1)} = ${JSON.stringify(list)} as const;`);
      }),
      '',
    ].join('\n'),
  );

  // Locales: one JSON per language (a lazily loaded chunk each), ICU texts compiled into i18next's
  // plural keys, without the server's own texts (email.json: emails and texts, server/delivery/email).
  const browserTexts = (merged: Record<string, unknown>): Tree =>
    compileLocale(Object.fromEntries(Object.entries(merged).filter(([file]) => !SERVER_ONLY_LOCALE_FILES.includes(file))) as Tree);
  // Each language complete on its own, a text not translated yet in English: the page loads one
  // locale chunk, not its language's and en-us as a fallback.
  const english = project.locales[project.defaultLanguage];
  const withEnglish = (tree: Record<string, unknown>, base: unknown): Record<string, unknown> => {
    if (base === null || typeof base !== 'object') return tree;
    const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
    for (const [key, value] of Object.entries(tree)) {
      const under = out[key];
      out[key] =
        value !== null && typeof value === 'object' && under !== null && typeof under === 'object'
          ? withEnglish(value as Record<string, unknown>, under)
          : value;
    }
    return out;
  };
  // Each language whole (the build and the server read it) and one chunk per locale file (the app
  // loads a page's first texts, then the rest: src/app/i18n.ts).
  for (const [lang, merged] of Object.entries(project.locales)) {
    const texts = browserTexts(withEnglish(merged, english));
    write(join(out, 'locales', `${lang}.json`), JSON.stringify(texts));
    for (const [file, tree] of Object.entries(texts)) write(join(out, 'locales', lang, `${file}.json`), JSON.stringify(tree));
    // The language's loaders, a small chunk of their own: the app's first load names 18 of these, not every file.
    write(
      join(out, 'locales', lang, 'index.ts'),
      [
        `/* Generated by scripts/generate.ts from locales/${lang}/. Do not edit. */`,
        `const files: Record<string, () => Promise<{ default: Record<string, unknown> }>> = {`,
        ...Object.keys(texts).map((file) => `  ${JSON.stringify(file)}: () => import('./${file}.json'),`),
        `};`,
        `export default files;`,
        '',
      ].join('\n'),
    );
  }
  // The pseudo-locale from en-us (catalogue/language/pseudo.ts): outside locales/, so the app never lists or loads it.
  if (english) write(join(out, 'pseudo', `${PSEUDO_LOCALE}.json`), JSON.stringify(pseudoLocale(browserTexts(english))));

  // Operations: the table the client calls by name, and precompiled response validators.
  const ajv = new Ajv({ code: { source: true }, strict: false, allErrors: false });
  const table: string[] = [];
  const exported: Record<string, string> = {};
  const typeDefs: Record<string, unknown> = {};
  const operationTypes: string[] = [];
  for (const [name, op] of Object.entries(project.operations).sort(([a], [b]) => a.localeCompare(b))) {
    const apiDir = join(root, 'schemas/api');
    const request = op.request ? (inlineRefs(op.request, apiDir, join(root, 'schemas')) as Record<string, unknown>) : null;
    const response = op.response ? (inlineRefs(op.response, apiDir, join(root, 'schemas')) as Record<string, unknown>) : null;
    if (response) {
      ajv.addSchema(withoutAnnotations(response) as Record<string, unknown>, name);
      exported[name] = name;
    }
    const props = Object.keys((request?.properties as Record<string, unknown> | undefined) ?? {});
    const hasBody = op.method !== 'GET' && op.method !== 'DELETE' && request !== null;
    table.push(`  ${name}: op(${JSON.stringify(op.method)}, ${JSON.stringify(op.path)}, ${hasBody}, ${props.includes('recaptchaToken')}),`);
    const typeName = name.charAt(0).toUpperCase() + name.slice(1);
    if (request) typeDefs[`${typeName}Request`] = { ...request, title: `${typeName}Request` };
    if (response) typeDefs[`${typeName}Response`] = { ...response, title: `${typeName}Response` };
    operationTypes.push(
      `  ${name}: { request: ${request ? `${typeName}Request` : 'Record<string, never>'}; response: ${response ? `${typeName}Response` : 'unknown'} };`,
    );
  }
  // One small module per response validator, loaded on the operation's first call: the entry
  // chunk carries none of them (all of them together were the largest piece of /login's bundle).
  const validatorLoaders: string[] = [];
  for (const name of Object.keys(exported)) {
    write(
      join(out, 'api', `${name}.cjs`),
      `/* Generated by scripts/generate.ts from schemas/api/${name}.json. Do not edit. */\n${standaloneCode(ajv, { validate: name })}`,
    );
    validatorLoaders.push(`  ${name}: () => import('./api/${name}.cjs'),`);
  }
  write(
    join(out, 'operations.ts'),
    [
      '/* Generated by scripts/generate.ts from schemas/api/. Do not edit. */',
      'export interface OperationInfo { method: string; path: string; hasBody: boolean; acceptsBotCheckToken: boolean }',
      '// A constructor rather than 39 object literals: the table is part of every first load.',
      'const op = (method: string, path: string, hasBody: boolean, acceptsBotCheckToken: boolean): OperationInfo => ({ method, path, hasBody, acceptsBotCheckToken });',
      'export const operations = {',
      ...table,
      '} as const satisfies Record<string, OperationInfo>;',
      'export type OperationName = keyof typeof operations;',
      'type Check = (data: unknown) => boolean;',
      '// CommonJS interop: the named export, or the same under default.',
      'type CheckModule = { validate?: unknown; default?: { validate?: unknown } };',
      'const responseValidators: Partial<Record<OperationName, () => Promise<CheckModule>>> = {',
      ...validatorLoaders,
      '};',
      'const loadedValidators = new Map<OperationName, Promise<Check | undefined>>();',
      '/** The response validator of one operation (its own lazy chunk, loaded once); a failed load may be retried. */',
      'export function loadResponseValidator(name: OperationName): Promise<Check | undefined> {',
      '  let pending = loadedValidators.get(name);',
      '  if (!pending) {',
      '    const load = responseValidators[name];',
      '    pending = load',
      '      ? load().then((m) => (m.validate ?? m.default?.validate) as Check)',
      '      : Promise.resolve(undefined);',
      '    pending.catch(() => loadedValidators.delete(name));',
      '    loadedValidators.set(name, pending);',
      '  }',
      '  return pending;',
      '}',
      '/** True when a response body matches its schema in schemas/api; rejects when the validator cannot load. */',
      'export async function validateResponse(name: OperationName, data: unknown): Promise<boolean> {',
      '  const check = await loadResponseValidator(name);',
      '  return check ? check(data) === true : true;',
      '}',
      '',
    ].join('\n'),
  );
  // One compile for all operations, so shared pieces are declared once.
  const typesRoot = { title: 'ApiOperations', type: 'object', definitions: typeDefs, additionalProperties: false } as Parameters<typeof compile>[0];
  const types = await compile(typesRoot, 'ApiOperations', {
    bannerComment: '/* Generated by scripts/generate.ts from schemas/api/. Do not edit. */',
    unreachableDefinitions: true,
    additionalProperties: false,
    strictIndexSignatures: true,
  });
  // Operation name to its request and response types: the typed client and the server's handlers use it.
  // json-schema-to-typescript writes a title its own way ('U2fLoginRequest' becomes U2FLoginRequest).
  const declared = new Map([...types.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => [m[1]!.toLowerCase(), m[1]!]));
  for (let i = 0; i < operationTypes.length; i++) {
    operationTypes[i] = operationTypes[i]!.replace(/\b(\w+(?:Request|Response))\b/g, (name) => declared.get(name.toLowerCase()) ?? name);
  }
  write(
    join(out, 'api-types.ts'),
    `${types}\n/** Every operation of schemas/api by name: its request and response types. */\nexport interface ApiOperations {\n${operationTypes.join('\n')}\n}\n`,
  );
  pruneStale(out);
  return project;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  generate().then(
    (project) =>
      console.log(
        `catalogue ok: ${project.screens.length} screens, ${Object.keys(project.operations).length} operations, ${Object.keys(project.locales).length} locale(s)`,
      ),
    (error: unknown) => {
      console.error(error instanceof CatalogueError ? error.message : error);
      process.exit(1);
    },
  );
}
