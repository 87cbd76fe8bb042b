import { escapePointer } from '../language/json-pointer';
import type { StepSpec } from '../language/types';
import { checkBlocks } from './blocks';
import { checkCall } from './calls';
import { checkSchemaNames, compileProblem, locateCompileProblem } from './form';
import { listReference } from './lists';
import { checkKey } from './locales';
import { checkOutcome } from './outcomes';
import { checkReachable } from './reachable';
import { valuesOfSchema } from './schema-values';
import { ScreenCheck, type CatalogueFacts } from './screen-check';
import { checkCondition, checkList, checkMapping, checkText } from './sources';
import { closest } from './suggest';
import type { LoadedScreen, Problem, Project } from './types';
import { checkUi } from './ui';

/** All cross-checks of one screen (its meta-schema has passed): the screen's own keys, each step, and its context. */
export function checkScreen(entry: LoadedScreen, project: Project, catalogue: CatalogueFacts, problems: Problem[]): void {
  const c = new ScreenCheck(entry, project, catalogue, problems);
  const { screen } = c;
  checkKey(project, c.report, screen.title, '/title');
  if (!screen.steps[screen.initialStep])
    c.report('/initialStep', `step "${screen.initialStep}" does not exist (steps: ${c.stepNames.join(', ')})`, closest(screen.initialStep, c.stepNames));
  for (const [name, spec] of Object.entries(screen.queryMessages ?? {})) checkKey(project, c.report, spec.key, `/queryMessages/${name}/key`);
  checkStateParam(c);
  (screen.routes ?? []).forEach((route, i) => route.title !== undefined && checkKey(project, c.report, route.title, `/routes/${i}/title`));
  (screen.onEnter ?? []).forEach((action, i) => {
    checkCondition(c, action.when, `/onEnter/${i}/when`);
    if (action.outcome) checkOutcome(c, action.outcome, `/onEnter/${i}/outcome`);
    checkCall(c, action, `/onEnter/${i}`, undefined, true);
  });
  (screen.timers ?? []).forEach((timer, i) => {
    checkCondition(c, timer.when, `/timers/${i}/when`);
    checkOutcome(c, timer.outcome, `/timers/${i}/outcome`);
  });
  for (const [stepName, step] of Object.entries(screen.steps)) checkStep(c, stepName, step);
  checkReachable(screen, c.report);
  checkContext(c);
}

function checkStateParam(c: ScreenCheck): void {
  const { stateParam } = c.screen;
  if (stateParam?.otherwise) checkOutcome(c, stateParam.otherwise, '/stateParam/otherwise');
  const fields = Object.keys(stateParam?.fields ?? {});
  (stateParam?.required ?? []).forEach((name, i) => {
    if (!fields.includes(name))
      c.report(`/stateParam/required/${i}`, `"${name}" is not a field of the state parameter (fields: ${fields.join(', ')})`, closest(name, fields));
  });
  for (const [name, field] of Object.entries(stateParam?.fields ?? {})) {
    const list = listReference(field.enum);
    if (list !== undefined) checkList(c.project.lists, c.report, list, `/stateParam/fields/${name}/enum`);
  }
}

function checkStep(c: ScreenCheck, stepName: string, step: StepSpec): void {
  const at = `/steps/${stepName}`;
  // A schema whose $ref failed is reported at the $ref; its field names still stand, so the UI
  // schema and the body are not reported again for fields that do exist.
  const fields = c.stepFields(stepName);
  const formFields = step.schema ? fields : undefined;
  checkText(c, step.title, `${at}/title`);
  checkBlocks(c, step.blocks?.before, `${at}/blocks/before`, formFields);
  checkBlocks(c, step.blocks?.after, `${at}/blocks/after`, formFields);
  checkMapping(c, step.initialData, `${at}/initialData`);
  for (const [name, source] of Object.entries(step.initialData ?? {})) {
    const values = valuesOfSchema(c.fieldSchemas.get(name));
    if (values && source !== null && typeof source === 'object' && 'const' in source && typeof source.const === 'string' && !values.includes(source.const))
      c.report(
        `${at}/initialData/${escapePointer(name)}/const`,
        `form field "${name}" is never "${source.const}" (its values: ${values.join(', ')})`,
        closest(source.const, values),
      );
    if (step.schema && !fields.has(name))
      c.report(
        `${at}/initialData/${escapePointer(name)}`,
        `form field "${name}" does not exist in this step: its initial value goes nowhere`,
        closest(name, fields),
      );
  }
  if (step.schema) {
    checkUi(c, step, stepName, fields);
    checkSchemaNames(step.schema, `${at}/schema`, c.report);
    const inlined = c.entry.schemas[stepName];
    const failure = inlined ? compileProblem(c.catalogue.files, inlined) : undefined;
    if (failure) {
      const located = locateCompileProblem(step.schema, failure);
      c.report(`${at}/schema${located.pointer}`, `the form's JSON Schema is not valid: ${failure}`, located.suggestion);
    }
  }
  const submits = step.submit === undefined ? [] : Array.isArray(step.submit) ? step.submit : [step.submit];
  submits.forEach((submit, i) => {
    const p = Array.isArray(step.submit) ? `${at}/submit/${i}` : `${at}/submit`;
    if (!step.schema) c.report(p, 'a submit needs a form: this step has no schema');
    checkCondition(c, submit.when, `${p}/when`);
    checkCondition(c, submit.disabledWhen, `${p}/disabledWhen`);
    checkText(c, submit.label, `${p}/label`);
    checkCall(c, submit, p, fields);
    if (submit.outcome) checkOutcome(c, submit.outcome, `${p}/outcome`, fields);
  });
  (step.probes ?? []).forEach((probe, i) => {
    if (!fields.has(probe.field)) c.report(`${at}/probes/${i}/field`, `form field "${probe.field}" does not exist in this step`, closest(probe.field, fields));
    checkCall(c, probe, `${at}/probes/${i}`, fields, true);
  });
}

/**
 * The context: every value read is set somewhere (a declared context, a route, the state parameter,
 * a navigation's history state, an assign), and every value set is read: a value nothing reads is
 * most often a misspelt name.
 */
function checkContext(c: ScreenCheck): void {
  const { names, reads, facts } = c.catalogue;
  for (const read of facts.reads) {
    if (!names.has(read.name))
      c.report(read.pointer, `context value "${read.name}" is never set on this screen (set: ${c.contextHint()})`, closest(read.name, names.keys()));
  }
  // A misspelt read already says "never set": the value it meant is not reported again as unread.
  const meant = new Set(facts.reads.filter((r) => !names.has(r.name)).map((r) => closest(r.name, names.keys())));
  const unread = (name: string, pointer: string) => {
    if (!reads.has(name) && !meant.has(name)) c.report(pointer, `context value "${name}" is set but nothing on this screen reads it`, closest(name, reads));
  };
  facts.assigns.forEach((a) => unread(a.name, a.pointer));
  Object.keys(c.screen.context ?? {}).forEach((name) => unread(name, `/context/${escapePointer(name)}`));
  (c.screen.routes ?? []).forEach((route, i) =>
    Object.keys(route.context ?? {}).forEach((name) => unread(name, `/routes/${i}/context/${escapePointer(name)}`)),
  );
}
