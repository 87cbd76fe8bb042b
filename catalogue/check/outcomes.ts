import { escapePointer } from '../language/json-pointer';
import type { Outcome, Outcomes } from '../language/types';
import { routeHas } from './context';
import type { ScreenCheck } from './screen-check';
import { checkActions, checkFieldNames, checkMapping, checkText } from './sources';
import { closest } from './suggest';

/** The verbs of an outcome: where it leads. One at most. */
const VERBS = ['step', 'navigate', 'redirect', 'authenticate', 'resubmit'] as const;

/** An outcome of a screen: what it assigns, says, clears and sets names what exists, and it leads somewhere that exists. */
export function checkOutcome(c: ScreenCheck, outcome: Outcome, pointer: string, fields?: Set<string>): void {
  const { screen, catalogue } = c;
  checkMapping(c, outcome.assign, `${pointer}/assign`, fields);
  checkActions(c.project.vocabulary, c.report, outcome.actions, `${pointer}/actions`);
  if (outcome.message) checkText(c, { key: outcome.message.key, values: outcome.message.values }, `${pointer}/message`);
  checkText(c, outcome.error, `${pointer}/error`);
  checkText(c, outcome.warning, `${pointer}/warning`);
  checkFieldNames(
    c,
    [
      ...(outcome.clear ?? []).map((name, i): [string, string] => [name, `${pointer}/clear/${i}`]),
      ...Object.keys(outcome.setFields ?? {}).map((name): [string, string] => [name, `${pointer}/setFields/${escapePointer(name)}`]),
    ],
    fields,
  );
  checkMapping(c, outcome.setFields, `${pointer}/setFields`, fields);
  // With a step, the field errors are for that step's fields (marked and focused there).
  const target = outcome.step !== undefined && screen.steps[outcome.step] ? c.stepFields(outcome.step) : fields;
  for (const [field, text] of Object.entries(outcome.fieldErrors ?? {})) {
    checkText(c, text, `${pointer}/fieldErrors/${field}`);
    if (target && !target.has(field))
      c.report(
        `${pointer}/fieldErrors/${field}`,
        `form field "${field}" does not exist in ${outcome.step !== undefined ? `step "${outcome.step}"` : 'this step'}`,
        closest(field, target),
      );
  }
  if (outcome.step !== undefined && !screen.steps[outcome.step])
    c.report(`${pointer}/step`, `step "${outcome.step}" does not exist (steps: ${c.stepNames.join(', ')})`, closest(outcome.step, c.stepNames));
  if (outcome.navigate) {
    const to = outcome.navigate.to;
    if (catalogue.routesKnown && !catalogue.allRoutes.some((route) => routeHas(route, to)))
      c.report(`${pointer}/navigate/to`, `no screen has a route for "${to}"`, closest(to, catalogue.allRoutes));
    for (const part of ['params', 'query', 'stateParam', 'routerState'] as const)
      checkMapping(c, outcome.navigate[part], `${pointer}/navigate/${part}`, fields);
  }
  const verbs = VERBS.filter((verb) => outcome[verb] !== undefined);
  if (verbs.length > 1) c.report(pointer, `an outcome can do only one of ${VERBS.join(', ')} (has ${verbs.join(', ')})`);
}

export function checkOutcomes(c: ScreenCheck, outcomes: Outcomes | undefined, pointer: string, fields?: Set<string>): void {
  for (const [code, outcome] of Object.entries(outcomes ?? {})) checkOutcome(c, outcome, `${pointer}/${code}`, fields);
}
