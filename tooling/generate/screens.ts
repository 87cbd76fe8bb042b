import { join } from 'node:path';
import { compileSchemaValidatorsCode } from '@rjsf/validator-ajv8/compileSchemaValidators';
import addValidators, { DEFAULT_FORMATS_MODULE, formatNames } from '@frontdoor/validators';
import type { Project } from '../../catalogue/check/check';
import { expandScreen } from '../../catalogue/check/lists';
import { rjsfPartsOf } from '../../catalogue/check/rjsf-parts';
import type { ScreenFile } from '../../catalogue/language/types';
import { banner, withoutAnnotations, type Output } from './output';

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

/** A route of the catalogue as the app's route table has it (src/generated/catalogue.ts, routes.json). */
export interface GeneratedRoute {
  path: string;
  screenId: string;
  title: string;
  layout?: string;
  route?: { context?: Record<string, unknown>; title?: string };
}

type ProjectScreen = Project['screens'][number];

/** What a screen's module brings beside its file: its step validators (each its own module) and the rjsf parts its forms render. */
interface ScreenParts {
  imports: string[];
  validators: string[];
  rjsfFields: Set<string>;
  rjsfWidgets: Set<string>;
  /** A form with allOf needs rjsf's merge of it, which the browser build leaves out otherwise (src/engine/form/all-of.ts). */
  allOf: boolean;
}

/**
 * The steps a screen can show first: its initial step, and those its on-enter actions go to without a
 * call (/register's initial step is a spinner; its enter goes on to `details` at once).
 */
export function firstSteps(screen: ScreenFile): Set<string> {
  const steps = new Set([screen.initialStep]);
  for (const action of screen.onEnter ?? []) if (!action.operation && action.outcome?.step) steps.add(action.outcome.step);
  return steps;
}

/**
 * The content parts (blocks `{ "type": "component" }`) a screen's first steps show, by name: the build
 * modulepreloads their chunks with the route's (scripts/vite-static.ts, catalogue/build-contract.ts IDLE_CHUNK).
 */
export function firstStepParts(screen: ScreenFile): string[] {
  const names = [...firstSteps(screen)].flatMap((step) => {
    const blocks = screen.steps[step]?.blocks;
    return [...(blocks?.before ?? []), ...(blocks?.after ?? [])].flatMap((block) => (block.type === 'component' && block.name ? [block.name] : []));
  });
  return [...new Set(names)].sort();
}

function screenParts(out: Output, dir: string, screen: ScreenFile, resolved: ScreenFile, shippedSchemas: Record<string, Record<string, unknown>>): ScreenParts {
  const parts: ScreenParts = { imports: [], validators: [], rjsfFields: new Set(), rjsfWidgets: new Set(), allOf: false };
  const first = firstSteps(resolved);
  parts.allOf = Object.values(shippedSchemas).some((schema) => JSON.stringify(schema).includes('"allOf"'));
  for (const [stepName, schema] of Object.entries(shippedSchemas)) {
    const rjsf = rjsfPartsOf(schema, resolved.steps[stepName]?.uiSchema);
    rjsf.fields.forEach((name) => parts.rjsfFields.add(name));
    rjsf.widgets.forEach((name) => parts.rjsfWidgets.add(name));
    const code = compileSchemaValidatorsCode(schema, { ajvFormatOptions: false, extenderFn: (ajv) => addValidators(ajv) });
    const name = `${screen.id}.${stepName}.validators.cjs`;
    out.write(join(dir, name), `${banner(`screens/${screen.id}.json`)}\n${requireFormatsOneByOne(code)}`);
    // A first step's validator comes with the screen (issue 39: with its formats and rjsf's
    // validator in the build's `validation` chunk, modulepreloaded beside the screen's, not four
    // chunks after the form is live); rjsf asks it while rendering for conditional schemas, which
    // bring theirs with the screen too. A later step's loads when the step is shown.
    if (first.has(stepName) || /"(if|oneOf|anyOf|dependencies)"/.test(JSON.stringify(schema))) {
      parts.imports.push(`import * as ${stepName}Validators from './${name}';`);
      parts.validators.push(`${stepName}: ${stepName}Validators`);
    } else parts.validators.push(`${stepName}: () => import('./${name}')`);
  }
  return parts;
}

function screenModuleCode(screenId: string, outcomes: unknown, parts: ScreenParts): string {
  const { rjsfFields, rjsfWidgets, allOf } = parts;
  return [
    banner(`screens/${screenId}.json`),
    `import type { ScreenFile, ScreenModule, SharedOutcomes } from '../../engine';`,
    `import screen from './${screenId}.json';`,
    ...parts.imports,
    // rjsf parts the browser registry defers but this screen renders: they come with its chunk.
    ...[...rjsfFields].map((name) => `import ${name} from '@rjsf/core/lib/components/fields/${name}.js';`),
    ...[...rjsfWidgets].map((name) => `import ${name} from '@rjsf/core/lib/components/widgets/${name}.js';`),
    ...(allOf ? [`import mergeAllOf from '@rjsf/utils/lib/schema/shallowAllOfMerge.js';`] : []),
    `const module: ScreenModule = {`,
    `  screen: screen as unknown as ScreenFile,`,
    `  outcomes: ${JSON.stringify(outcomes)} as unknown as SharedOutcomes,`,
    `  validators: { ${parts.validators.join(', ')} },`,
    ...(rjsfFields.size + rjsfWidgets.size > 0 || allOf
      ? [`  rjsf: { fields: { ${[...rjsfFields].join(', ')} }, widgets: { ${[...rjsfWidgets].join(', ')} }${allOf ? ', mergeAllOf' : ''} },`]
      : []),
    `};`,
    `export default module;`,
    '',
  ].join('\n');
}

/** The screen's routes: the card's heading while it loads is the route's own title, else the first step's, else the screen's. */
function routesOf(screen: ScreenFile): GeneratedRoute[] {
  const firstTitle = screen.steps[screen.initialStep]?.title;
  const title = typeof firstTitle === 'string' ? firstTitle : screen.title;
  return (screen.routes ?? []).map((route) => {
    // What the runtime needs of the route beyond its path: its context and its own title.
    const own = { ...(route.context ? { context: route.context } : {}), ...(route.title ? { title: route.title } : {}) };
    return {
      path: route.path,
      screenId: screen.id,
      title: route.title ?? title,
      ...(screen.layout ? { layout: screen.layout } : {}),
      ...(Object.keys(own).length > 0 ? { route: own } : {}),
    };
  });
}

/**
 * One screen's module (its own chunk): the expanded screen file, the shared outcomes it includes and
 * its step validators. Business lists expanded, each step's schema with its $refs inlined
 * (catalogue/check/lists.ts) and without annotations (the UI schema's i18n keys label the fields): the
 * same object for the precompiled validator and for rjsf, whose lookup hashes it.
 */
function writeScreen(out: Output, dir: string, project: Project, { screen, schemas }: ProjectScreen): void {
  const shippedSchemas = Object.fromEntries(Object.entries(schemas).map(([step, schema]) => [step, withoutAnnotations(schema) as Record<string, unknown>]));
  const resolved = expandScreen(screen, shippedSchemas, project.lists);
  // The shared outcomes with only the blocks this screen includes (catalogue/language/outcome-lookup.ts applies them).
  const included = includedBlocks(screen);
  const { defaults, visitorDefaults, unhandled, blocks } = project.outcomes;
  const outcomes = { defaults, visitorDefaults, unhandled, blocks: Object.fromEntries(Object.entries(blocks).filter(([name]) => included.has(name))) };
  const parts = screenParts(out, dir, screen, resolved, shippedSchemas);
  // The editor's "$schema" and the notes for product managers are never shown: not in the browser's chunk.
  const { $schema: _schema, description: _notes, ...shipped } = resolved as ScreenFile & { $schema?: string };
  out.write(join(dir, `${screen.id}.json`), JSON.stringify(shipped));
  out.write(join(dir, `${screen.id}.ts`), screenModuleCode(screen.id, outcomes, parts));
}

/** Screens: one module per screen, so each route is its own chunk; the route table as code and as data. */
export function writeScreens(out: Output, dir: string, project: Project): GeneratedRoute[] {
  const routes = project.screens.flatMap((entry) => {
    writeScreen(out, join(dir, 'screens'), project, entry);
    return routesOf(entry.screen);
  });
  const loaders = project.screens.map(({ screen }) => `  ${JSON.stringify(screen.id)}: () => import('./screens/${screen.id}').then((m) => m.default),`);
  out.write(
    join(dir, 'catalogue.ts'),
    [
      banner('screens/'),
      "import type { RouteSpec, ScreenModule } from '../engine';",
      "export interface CatalogueRoute { path: string; screenId: string; title: string; layout?: 'card' | 'wide'; route?: Omit<RouteSpec, 'path'> }",
      `export const routes: CatalogueRoute[] = ${JSON.stringify(routes, null, 2)};`,
      'export const loaders: Record<string, () => Promise<ScreenModule>> = {',
      ...loaders,
      '};',
      '',
    ].join('\n'),
  );
  // The same route table as data, for the build's preload map and static page shells (scripts/vite-static.ts,
  // tooling/shell-data.ts), with the content parts each route's first steps show.
  const parts = new Map(project.screens.map(({ screen }) => [screen.id, firstStepParts(screen)]));
  const withParts = routes.map((route) => {
    const shown = parts.get(route.screenId) ?? [];
    return shown.length > 0 ? { ...route, parts: shown } : route;
  });
  out.write(join(dir, 'routes.json'), JSON.stringify(withParts));
  return routes;
}
