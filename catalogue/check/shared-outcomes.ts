import { escapePointer } from '../language/json-pointer';
import type { Outcome } from '../language/types';
import { routeHas } from './context';
import { contractProblems, isTransportCode, resultCodesOf, TRANSPORT_CODES } from './contract';
import { checkTextKey } from './locales';
import { checkActions, checkEnvSource } from './sources';
import { closest } from './suggest';
import { reporter, SHARED_OUTCOMES_FILE, type Problem, type Project } from './types';

/** The shared outcomes' texts, routes and actions exist (their shape the meta-schema has checked). */
export function checkSharedOutcomes(
  project: Project,
  allRoutes: string[],
  problems: Problem[],
  routesKnown = true,
  blockOperations = new Map<string, Set<string>>(),
): void {
  const file = `screens/${SHARED_OUTCOMES_FILE}`;
  const report = reporter(problems, file);
  const outcome = (o: Outcome, at: string) => {
    checkTextKey(project, report, o.error, `${at}/error`);
    checkTextKey(project, report, o.warning, `${at}/warning`);
    if (o.message) checkTextKey(project, report, { key: o.message.key, values: o.message.values }, `${at}/message`);
    checkActions(project.vocabulary, report, o.actions, `${at}/actions`);
    if (o.step !== undefined) report(`${at}/step`, 'a shared outcome cannot lead to a step: steps belong to one screen');
    const to = o.navigate?.to;
    if (to !== undefined && routesKnown && !allRoutes.some((route) => routeHas(route, to)))
      report(`${at}/navigate/to`, `no screen has a route for "${to}"`, closest(to, allRoutes));
  };
  const { defaults, visitorDefaults, unhandled, blocks } = project.outcomes;
  // $env sources name what the host provides.
  const envReads = (node: unknown, pointer: string): void => {
    if (typeof node === 'string') checkEnvSource(project.vocabulary, report, node, pointer);
    else if (Array.isArray(node)) node.forEach((item, i) => envReads(item, `${pointer}/${i}`));
    else if (node !== null && typeof node === 'object') for (const [k, v] of Object.entries(node)) envReads(v, `${pointer}/${escapePointer(k)}`);
  };
  envReads(project.outcomes, '');
  // A default applies to every call: its code must be one some call can end in.
  const anyCode = new Set(Object.keys(project.operations).flatMap((op) => resultCodesOf(project, op).codes));
  for (const [part, table] of [
    ['defaults', defaults],
    ['visitorDefaults', visitorDefaults],
  ] as const) {
    for (const code of Object.keys(table)) {
      if (!isTransportCode(code) && !anyCode.has(code))
        report(
          `/${part}/${escapePointer(code)}`,
          `no call ends in "${code}": not a transport code (${TRANSPORT_CODES.join(', ')}, HTTP_<status>) nor one an operation lists`,
          closest(code, [...TRANSPORT_CODES, ...anyCode]),
        );
    }
  }
  for (const [code, o] of Object.entries(defaults)) outcome(o, `/defaults/${code}`);
  for (const [code, o] of Object.entries(visitorDefaults)) outcome(o, `/visitorDefaults/${code}`);
  outcome(unhandled, '/unhandled');
  for (const [name, table] of Object.entries(blocks)) {
    for (const [code, o] of Object.entries(table)) outcome(o, `/blocks/${name}/${code}`);
    // Codes and answers against the operations of the calls that include the block: one of them must answer each.
    const ops = [...(blockOperations.get(name) ?? [])];
    if (ops.length === 0) continue;
    const byPointer = new Map<string, Array<{ message: string; suggestion?: string }>>();
    for (const op of ops) {
      contractProblems(project, op, undefined, table, `/blocks/${escapePointer(name)}`, (pointer, message, suggestion) => {
        (byPointer.get(pointer) ?? byPointer.set(pointer, []).get(pointer))?.push({ message, suggestion });
      });
    }
    for (const [pointer, found] of byPointer) {
      if (found.length < ops.length) continue; // some including operation answers it
      const first = found[0];
      if (first)
        report(
          pointer,
          `${first.message}${ops.length > 1 ? ` (nor does ${ops.filter((o) => !first.message.includes(`"${o}"`)).join(', ')})` : ''}`,
          first.suggestion,
        );
    }
  }
}
