import type { ScreenFile } from '../language/types';
import type { FileFacts } from './context';
import type { CatalogueFiles } from './files';
import type { WidgetOptionSchemas } from './form';
import { listOrEnum } from './lists';
import { routeParams } from '../language/routes';
import { enumOfSchema, valuesOfSchema } from './schema-values';
import { reporter, type LoadedScreen, type Problem, type Project, type Report } from './types';

/** What the check of one screen needs beyond the screen: facts of the whole catalogue. */
export interface CatalogueFacts {
  files: CatalogueFiles;
  /** Every route of the catalogue (screens that failed their meta-schema included). */
  allRoutes: string[];
  /** Context names the screen can hold, and how each is set. */
  names: Map<string, string>;
  /** Context name to the sources its assigns copy (own and included blocks'). */
  assignSources: Map<string, unknown[]>;
  /** Context names the screen reads (sources, conditions, included blocks, widget options). */
  reads: Set<string>;
  facts: FileFacts;
  widgetOptions: WidgetOptionSchemas;
  /** False when a screen file did not load: a route may be missing only because of it. */
  routesKnown: boolean;
  /** False when a file of schemas/api or the shared outcomes did not load. */
  operationsKnown: boolean;
}

type Fields = Record<string, Record<string, unknown>>;
const propertiesOf = (schema: unknown): Fields => ((schema as { properties?: Fields } | undefined)?.properties ?? {}) as Fields;

/**
 * The check of one screen as an object (the context the checks of its parts share, in place of
 * closures): the screen, the catalogue's facts, and `report`, which files a problem against the
 * screen's file. The checks themselves are functions of it, one module per part of a screen file
 * (texts and sources, outcomes, calls, blocks, the UI schema, the screen's own keys).
 */
export class ScreenCheck {
  readonly screen: ScreenFile;
  readonly file: string;
  readonly report: Report;
  readonly stepNames: string[];
  /** The parameters of the screen's routes (':code'). */
  readonly routeParams: Set<string>;
  /** The fields of every step (a source outside a step may name any of them). */
  readonly formFields: Set<string>;
  /** Field name to its inlined schema (the first step that has it). */
  readonly fieldSchemas = new Map<string, Record<string, unknown>>();

  constructor(
    readonly entry: LoadedScreen,
    readonly project: Project,
    readonly catalogue: CatalogueFacts,
    problems: Problem[],
  ) {
    this.screen = entry.screen;
    this.file = entry.file;
    this.report = reporter(problems, entry.file);
    this.stepNames = Object.keys(this.screen.steps);
    this.routeParams = new Set((this.screen.routes ?? []).flatMap((route) => routeParams(route.path)));
    // A step whose schema did not inline (a bad $ref, reported once at the $ref) still names its fields:
    // read them from the written schema, so one mistake stays one problem.
    const written = Object.entries(this.screen.steps)
      .filter(([name]) => !entry.schemas[name])
      .map(([, step]) => (step.schema ?? {}) as Record<string, unknown>);
    this.formFields = new Set([...Object.values(entry.schemas), ...written].flatMap((schema) => Object.keys(propertiesOf(schema))));
    for (const schema of Object.values(entry.schemas))
      for (const [name, sub] of Object.entries(propertiesOf(schema))) if (!this.fieldSchemas.has(name)) this.fieldSchemas.set(name, sub);
  }

  /** The fields of one step (its inlined schema, or as written when the $ref did not resolve). */
  stepFields(stepName: string): Set<string> {
    return new Set(Object.keys(propertiesOf(this.entry.schemas[stepName] ?? this.screen.steps[stepName]?.schema)));
  }

  /** "(set: a, b)" of a "never set" problem. */
  contextHint(): string {
    return [...this.catalogue.names.keys()].sort().join(', ') || 'nothing';
  }

  /** A context value set only by copying form fields with an enum takes only those values. */
  contextValues(name: string): string[] | undefined {
    const { screen } = this;
    if (Object.hasOwn(screen.context ?? {}, name) || (screen.routes ?? []).some((r) => Object.hasOwn(r.context ?? {}, name))) return undefined;
    const sources = this.catalogue.assignSources.get(name) ?? [];
    if (sources.length === 0) return undefined;
    const values = new Set<string>();
    for (const source of sources) {
      const field = typeof source === 'string' ? /^\/([^/]+)$/.exec(source)?.[1] : undefined;
      const list = field === undefined ? undefined : valuesOfSchema(this.fieldSchemas.get(field));
      if (!list) return undefined;
      list.forEach((v) => values.add(v));
    }
    return [...values];
  }

  /** The values a flag may compare against: a form field's enum, a state field's list, a context value's. */
  flagValues(reads: 'env' | 'ctx' | 'form', name: string): string[] | undefined {
    if (reads === 'form') return enumOfSchema(this.fieldSchemas.get(name));
    if (reads === 'ctx') return listOrEnum(this.screen.stateParam?.fields?.[name]?.enum, this.project.lists) ?? this.contextValues(name);
    return undefined;
  }
}
