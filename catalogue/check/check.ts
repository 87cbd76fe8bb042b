import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { escapePointer } from '../language/json-pointer';
import type { ScreenFile } from '../language/types';
import { contextNames, factsOf, targetsOf, type FileFacts, type Navigation } from './context';
import type { CatalogueFiles } from './files';
import { loadWidgetOptions } from './form';
import { checkHandoffs, checkQueryReads, readsOf } from './handoffs';
import { loadProject, type CheckOptions } from './load';
import { pendingTranslations, type PendingTranslation } from './locales';
import { PositionFinder } from './positions';
import { checkScreen } from './screen';
import { checkSharedOutcomes } from './shared-outcomes';
import { reporter, SHARED_OUTCOMES_FILE, type LoadedScreen, type Problem, type Project, type ProjectDirs, type Report } from './types';
import { checkTexts } from './texts';

/**
 * The catalogue check: what the build, the tests, `npm run screens:check` and the studio's server
 * run (the module's door: import from here). loadProject reads and parses the files (./load.ts);
 * each screen is checked against the facts of the whole catalogue (./screen.ts and its parts), then
 * what navigations hand from screen to screen (./handoffs.ts) and the shared outcomes
 * (./shared-outcomes.ts). Problems carry the file, the JSON pointer and, when located, line and column.
 */
export type { OperationFile, LoadedScreen, Problem, Project, ProjectDirs, UiKeys } from './types';
export type { CheckOptions } from './load';
export { formatProblem, SERVER_ONLY_LOCALE_FILES, SHARED_OUTCOMES_FILE } from './types';
export { loadProject } from './load';
export { knownResultCodes } from './calls';
export { checkCodeKeys, hasKey, pendingTranslations, type PendingTranslation } from './locales';
export { reachOf } from './reach';

/**
 * The check's result: `problems` (errors: the build and a save refuse them; exit code 1) and
 * `pending` (translations other languages lack: the app shows en-us there; listed, not blocking).
 */
export interface CheckResult {
  project: Project;
  problems: Problem[];
  pending: PendingTranslation[];
}

/** Each route's owner (the screen that serves it); a route two screens claim is a problem. Broken screens' routes count as known. */
function routeOwners(project: Project, problems: Problem[]): string[] {
  const owners = new Map<string, string>();
  for (const { screen, file } of project.screens) {
    (screen.routes ?? []).forEach((route, i) => {
      const owner = owners.get(route.path);
      if (owner) problems.push({ file, pointer: `/routes/${i}/path`, message: `route "${route.path}" is already used by ${owner}` });
      else owners.set(route.path, file);
    });
  }
  // A screen that failed its meta-schema still has routes others lead to: they are not reported missing.
  for (const screen of project.unchecked ?? []) {
    for (const route of Array.isArray(screen.routes) ? screen.routes : [])
      if (typeof route?.path === 'string' && !owners.has(route.path)) owners.set(route.path, '');
  }
  return [...owners.keys()];
}

/** What the whole catalogue tells about each screen: its facts, the shared blocks', where navigations lead, which operations include each block. */
function projectFacts(project: Project, files: CatalogueFiles) {
  const sharedFile = `screens/${SHARED_OUTCOMES_FILE}`;
  const facts = new Map(
    project.screens.map((entry) => [entry.file, files.memo(`facts:${entry.file}`, [entry.screen], () => factsOf(entry.screen, entry.file))]),
  );
  const sharedFacts = files.memo('facts:shared', [project.outcomes], () =>
    Object.fromEntries(Object.entries(project.outcomes.blocks).map(([name, block]) => [name, factsOf(block, sharedFile, `/blocks/${escapePointer(name)}`)])),
  );
  const sharedTop = files.memo('facts:shared-top', [project.outcomes], () => factsOf(project.outcomes, sharedFile));
  const navigations: Navigation[] = [...[...facts.values()].flatMap((f) => f.navigations), ...sharedTop.navigations];
  // Which operations include each shared block (its codes and $response reads are checked against them).
  const blockOperations = new Map<string, Set<string>>();
  for (const entry of project.screens) {
    for (const [name, operation] of files.memo(`includes:${entry.file}`, [entry.screen], () => includesOf(entry.screen)))
      (blockOperations.get(name) ?? blockOperations.set(name, new Set()).get(name))?.add(operation);
  }
  return { sharedFile, facts, sharedFacts, navigations, blockOperations };
}

type Facts = ReturnType<typeof projectFacts>;

/** What checking one screen reads beside the screen: the project, what it tells about every screen, and what is known at all. */
interface ProjectCheck {
  project: Project;
  files: CatalogueFiles;
  facts: Facts;
  allRoutes: string[];
  routesKnown: boolean;
  operationsKnown: boolean;
  widgetOptions: ReturnType<typeof loadWidgetOptions>;
}

/**
 * One screen checked (screen.ts) among the facts it reads, and its included blocks; the same screen
 * among the same facts has the same problems, so only the screens an edit touches are checked again.
 */
function checkOne(entry: Project['screens'][number], c: ProjectCheck, problems: Problem[]): void {
  const { project, files, facts, allRoutes, routesKnown, operationsKnown, widgetOptions } = c;
  const own = facts.facts.get(entry.file) ?? factsOf(entry.screen, entry.file);
  const incoming = facts.navigations.filter((nav) => targetsOf(nav.to, [{ screen: entry.screen }]).length > 0);
  const set = contextNames(entry.screen, own, incoming, project.outcomes, facts.sharedFacts);
  const reads = readsOf(entry, own, facts.sharedFacts, widgetOptions, project.vocabulary.widgets);
  const assignSources = new Map<string, unknown[]>();
  for (const a of [...own.assigns, ...own.includes.flatMap((b) => facts.sharedFacts[b]?.assigns ?? [])]) {
    (assignSources.get(a.name) ?? assignSources.set(a.name, []).get(a.name))?.push(a.source);
  }
  const deps = [
    entry,
    project.operations,
    project.outcomes,
    project.outcomesBroken,
    project.lists,
    project.brokenLocales?.join(),
    ...Object.values(project.locales),
    allRoutes.join('\n'),
    [...set.keys()].sort().join(),
    [...reads].sort().join(),
    JSON.stringify([...assignSources]),
    routesKnown,
    operationsKnown,
  ];
  problems.push(
    ...files.memo(`check:${entry.file}`, deps, () => {
      const found: Problem[] = [];
      checkScreen(entry, project, { files, allRoutes, names: set, reads, assignSources, facts: own, widgetOptions, routesKnown, operationsKnown }, found);
      return found;
    }),
  );
  checkIncludes(entry, own.includes, set, facts.sharedFacts, reporter(problems, facts.sharedFile));
}

/** The problems of every text (ICU syntax, plural forms, placeholders: texts.ts) and the translations pending, after the rest. */
function checkAllTexts(project: Project, files: CatalogueFiles, localesDir: string, unique: Problem[]) {
  const fallback = project.defaultLanguage;
  unique.push(
    ...files
      .memo('texts', [...Object.values(project.locales), project.brokenLocales?.join()], () =>
        checkTexts(project.locales, fallback, localesDir, project.brokenLocales),
      )
      .map((p) => ({ ...p })),
  );
  return files
    .memo('pending', [...Object.values(project.locales), project.brokenLocales?.join()], () => pendingTranslations(project, localesDir))
    .map((p) => ({ ...p }));
}

export function checkProject(dirs: ProjectDirs, options: CheckOptions = {}): CheckResult {
  const { project, problems, files } = loadProject(dirs, options);
  const allRoutes = routeOwners(project, problems);
  const broken = project.broken ?? [];
  // A screen file that does not parse has routes nobody knows: "no route for" elsewhere would be its echo.
  const routesKnown = (project.unparsed ?? []).length === 0;
  const operationsKnown = !broken.some((file) => file.includes('/api/'));
  const widgetOptions = loadWidgetOptions(project.vocabulary.widgets);
  problems.push(...widgetOptions.problems);
  const facts = projectFacts(project, files);
  const { only } = options;
  const c: ProjectCheck = { project, files, facts, allRoutes, routesKnown, operationsKnown, widgetOptions };
  for (const entry of project.screens) if (!only || only.has(entry.file)) checkOne(entry, c, problems);
  const { navigations, sharedFacts } = facts;
  if (routesKnown)
    checkHandoffs(project, only ? navigations.filter((nav) => only.has(nav.file)) : navigations, facts.facts, sharedFacts, widgetOptions, problems);
  if (routesKnown) checkQueryReads(project, navigations, facts.facts, sharedFacts, only, problems);
  checkSharedOutcomes(project, allRoutes, problems, routesKnown, facts.blockOperations);
  const fallback = project.defaultLanguage;
  if (!project.locales[fallback]) problems.push({ file: `locales/${fallback}`, pointer: '', message: `the default language ${fallback} is missing` });
  const unique = dedupe(problems);
  const pending = checkAllTexts(project, files, files.rel(resolve(project.root, dirs.localesDir ?? 'locales')), unique);
  if (options.locate !== false) {
    locateProblems(project.root, unique, files);
    locateProblems(project.root, pending as unknown as Problem[], files);
  }
  return { project, problems: unique, pending };
}

/** The shared blocks a screen's calls include, with the operation of each call. */
function includesOf(screen: ScreenFile): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    const n = node as Record<string, unknown>;
    if (typeof n.operation === 'string' && Array.isArray(n.include)) for (const name of n.include) if (typeof name === 'string') out.push([name, n.operation]);
    for (const [key, value] of Object.entries(n)) if (key !== 'schema' && key !== 'uiSchema') visit(value);
  };
  visit(screen);
  return out;
}

/** A shared block reads the context and the form of the screen that includes it. */
function checkIncludes(entry: LoadedScreen, includes: string[], names: Map<string, string>, sharedFacts: Record<string, FileFacts>, report: Report): void {
  const fields = new Set(Object.values(entry.schemas).flatMap((schema) => Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {})));
  const id = entry.screen.id;
  for (const block of new Set(includes)) {
    const facts = sharedFacts[block];
    for (const ref of facts?.formRefs ?? [])
      if (!fields.has(ref.name)) report(ref.pointer, `form field "${ref.name}" does not exist on screen "${id}", which includes this block`);
    for (const read of facts?.reads ?? [])
      if (!names.has(read.name)) report(read.pointer, `context value "${read.name}" is never set on screen "${id}", which includes this block`);
  }
}

function dedupe(problems: Problem[]): Problem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.file}\u0000${p.pointer}\u0000${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Adds line and column (of the pointer's node) to problems that have none yet. */
export function locateProblems(root: string, problems: Problem[], files?: CatalogueFiles): void {
  const finder = new PositionFinder((file) => {
    try {
      return file.endsWith('.json') ? (files ? files.read(file) : readFileSync(join(root, file), 'utf8')) : undefined;
    } catch {
      return undefined;
    }
  });
  for (const problem of problems) {
    if (problem.line !== undefined) continue;
    const position = finder.find(problem.file, problem.pointer);
    if (position) Object.assign(problem, position);
  }
}
