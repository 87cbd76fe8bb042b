import { escapePointer } from '../language/json-pointer';
import { outcomeFor } from '../language/outcome-lookup';
import type { CallSpec, Mapping } from '../language/types';
import { contractProblems, contractSchema, resultCodesOf, schemasAt } from './contract';
import { checkOutcomes } from './outcomes';
import type { ScreenCheck } from './screen-check';
import { valuesOfSchema } from './schema-values';
import { checkMapping } from './sources';
import { closest } from './suggest';
import { SHARED_OUTCOMES_FILE, type OperationFile, type Project } from './types';

/**
 * A call of a screen (a submit, a button, a probe, an on-enter call) against its operation's
 * contract (schemas/api): the operation exists, its body sends fields and values the request takes,
 * its bot-check action is the operation's, and every result code it can answer has an outcome.
 */

/**
 * The result codes an operation is known to answer: the enum or examples of the property that
 * resultFrom names in its response schema (schemas/api/common/loginResult.json lists them in
 * resultCode.examples). An open set stays open: codes not listed are what '*' is for.
 */
export function knownResultCodes(project: Project, operation: string, resultFrom = '/resultCode'): string[] {
  return resultCodesOf(project, operation, resultFrom).codes;
}

/** Every known result code of the operation has an outcome, or '*' covers the rest. */
function checkResultCodes(c: ScreenCheck, call: Partial<CallSpec>, pointer: string, background: boolean): void {
  if (call.operation === undefined || call.outcomes?.['*'] !== undefined) return;
  const missing = knownResultCodes(c.project, call.operation, call.resultFrom).filter(
    (code) => outcomeFor(call, code, c.project.outcomes, background).from === 'unhandled',
  );
  if (missing.length === 0) return;
  const many = missing.length > 1;
  c.report(
    call.outcomes ? `${pointer}/outcomes` : pointer,
    `result code${many ? 's' : ''} ${missing.map((code) => `"${code}"`).join(', ')} of operation "${call.operation}" ${many ? 'are' : 'is'} not handled: add ${many ? 'them' : 'it'} to "outcomes" or add a "*" outcome`,
  );
}

/** The values the request takes at a pointer (its enums). */
const requestValues = (request: unknown, pointer: string) => schemasAt(request, pointer).flatMap((node) => valuesOfSchema(node) ?? []);

/** The body's fields and constant values are ones the request takes; a form field's values too. */
function checkBody(c: ScreenCheck, call: Partial<CallSpec> & { operation: string }, op: OperationFile, pointer: string): void {
  const accepted = Object.keys((op.request?.properties as Record<string, unknown> | undefined) ?? {});
  const request = contractSchema(c.project, op, 'request');
  for (const [name, source] of Object.entries(call.body ?? {})) {
    const at = `${pointer}/body/${escapePointer(name)}`;
    if (!accepted.includes(name)) {
      c.report(at, `operation "${call.operation}" takes no field "${name}" (it takes: ${accepted.join(', ') || 'nothing'})`, closest(name, accepted));
      continue;
    }
    const allowed = requestValues(request, `/${escapePointer(name)}`);
    if (allowed.length === 0) continue;
    if (source !== null && typeof source === 'object' && 'const' in source && typeof source.const === 'string' && !allowed.includes(source.const))
      c.report(
        `${at}/const`,
        `operation "${call.operation}" takes no "${source.const}" as ${name} (it takes: ${allowed.join(', ')})`,
        closest(source.const, allowed),
      );
    const field = typeof source === 'string' ? /^\/([^/]+)$/.exec(source)?.[1] : undefined;
    const values = field === undefined ? undefined : valuesOfSchema(c.fieldSchemas.get(field));
    for (const value of (values ?? []).filter((v) => !allowed.includes(v)))
      c.report(
        at,
        `form field "${field}" can be "${value}", which operation "${call.operation}" does not take as ${name} (it takes: ${allowed.join(', ')})`,
        closest(value, allowed),
      );
  }
  checkNestedBody(c, call.operation, request, call.body, '', `${pointer}/body`);
}

/** A nested body ({"map": {...}}) has the fields of the request's sub-object. */
function checkNestedBody(c: ScreenCheck, operation: string, request: unknown, mapping: Mapping | undefined, path: string, at: string): void {
  for (const [name, source] of Object.entries(mapping ?? {})) {
    if (source === null || typeof source !== 'object' || !('map' in source)) continue;
    const sub = `${path}/${escapePointer(name)}`;
    const offered = [...new Set(schemasAt(request, sub).flatMap((node) => Object.keys((node.properties as Record<string, unknown> | undefined) ?? {})))];
    if (offered.length === 0) continue;
    for (const key of Object.keys(source.map)) {
      if (!offered.includes(key))
        c.report(
          `${at}/${escapePointer(name)}/map/${escapePointer(key)}`,
          `operation "${operation}" takes no field "${key}" in ${sub.slice(1)} (it takes: ${offered.join(', ')})`,
          closest(key, offered),
        );
    }
    checkNestedBody(c, operation, request, source.map, sub, `${at}/${escapePointer(name)}/map`);
  }
}

export function checkCall(c: ScreenCheck, call: Partial<CallSpec>, pointer: string, fields?: Set<string>, background = false): void {
  const { project } = c;
  const { operation } = call;
  if (operation === undefined) return;
  const blocks = Object.keys(project.outcomes.blocks);
  (call.include ?? []).forEach((name, i) => {
    if (!project.outcomesBroken && !project.outcomes.blocks[name])
      c.report(
        `${pointer}/include/${i}`,
        `unknown outcome block "${name}" (screens/${SHARED_OUTCOMES_FILE} has: ${blocks.join(', ') || 'none'})`,
        closest(name, blocks),
      );
  });
  const op = project.operations[operation];
  if (!op) {
    if (c.catalogue.operationsKnown)
      c.report(
        `${pointer}/operation`,
        `unknown operation "${operation}" (no schemas/api/${operation}.json)`,
        closest(operation, Object.keys(project.operations)),
      );
  } else {
    checkBody(c, { ...call, operation }, op, pointer);
    const action = op.botCheckAction ?? op.operation;
    if (call.botCheckAction !== undefined && call.botCheckAction !== action)
      c.report(
        `${pointer}/botCheckAction`,
        `the bot-check action of operation "${operation}" is "${action}" (schemas/api/${operation}.json): a token for "${call.botCheckAction}" would be refused`,
        action,
      );
    if (!project.outcomesBroken) checkResultCodes(c, call, pointer, background);
    contractProblems(
      project,
      operation,
      call.resultFrom,
      call.outcomes,
      `${pointer}/outcomes`,
      c.report,
      call.resultFrom !== undefined ? `${pointer}/resultFrom` : undefined,
    );
  }
  checkMapping(c, call.body, `${pointer}/body`, fields);
  checkOutcomes(c, call.outcomes, `${pointer}/outcomes`, fields);
}
