import { join } from 'node:path';
import type { Outcomes } from '../language/types';
import { escapePointer, pointerSegments } from '../language/json-pointer';
import type { Report } from './types';
import { inlineRefs } from './refs';
import { closest } from './suggest';

/**
 * What an operation's contract (schemas/api/<operation>.json) says a screen may rely on: the result
 * codes its answer can carry, the fields of its answer ($response/... pointers) and of its request.
 */
export interface ContractOperation {
  operation: string;
  request: Record<string, unknown> | null;
  response: Record<string, unknown> | null;
}

export interface ContractProject {
  root: string;
  schemasDir?: string;
  operations: Record<string, ContractOperation>;
}

/**
 * Codes every call can end with whatever the operation: the operation client's transport results
 * (src/api/client.ts: NETWORK_ERROR, TIMEOUT, HTTP_<status>, INVALID_RESPONSE), the bot check that
 * could not run (src/api/operation-caller.ts) and SUCCESS, what an answer without a result code means.
 */
export const TRANSPORT_CODES = ['SUCCESS', 'NETWORK_ERROR', 'TIMEOUT', 'INVALID_RESPONSE', 'BOT_CHECK_UNAVAILABLE'] as const;
const HTTP_CODE = /^HTTP_[1-5][0-9][0-9]$/;

export const isTransportCode = (code: string) => (TRANSPORT_CODES as readonly string[]).includes(code) || HTTP_CODE.test(code);

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => value !== null && typeof value === 'object' && !Array.isArray(value);

const inlined = new WeakMap<object, unknown>();
/** The operation's response (or request) schema with its file $refs inlined; undefined when it does not resolve. */
export function contractSchema(project: ContractProject, op: ContractOperation, part: 'request' | 'response'): unknown {
  const schema = op[part];
  if (!schema) return undefined;
  if (!inlined.has(schema)) {
    const schemasDir = project.schemasDir ?? join(project.root, 'schemas');
    try {
      inlined.set(schema, inlineRefs(schema, join(schemasDir, 'api'), schemasDir));
    } catch {
      inlined.set(schema, undefined); // a bad $ref in schemas/api is the contract test's to report
    }
  }
  return inlined.get(schema);
}

/** The sub-schemas a pointer can reach (through properties, items and allOf/anyOf/oneOf branches). */
const reached = new WeakMap<object, Map<string, Node[]>>();
export function schemasAt(schema: unknown, pointer: string): Node[] {
  if (!isNode(schema)) return [];
  let known = reached.get(schema);
  if (!known) reached.set(schema, (known = new Map()));
  let nodes = known.get(pointer);
  if (!nodes) known.set(pointer, (nodes = walkTo(schema, pointer)));
  return nodes;
}

function walkTo(schema: unknown, pointer: string): Node[] {
  const segments = pointerSegments(pointer).filter((s) => s !== '');
  let nodes: Node[] = isNode(schema) ? [schema] : [];
  const expand = (list: Node[]): Node[] =>
    list.flatMap((node) => [
      node,
      ...expand((['allOf', 'anyOf', 'oneOf'] as const).flatMap((k) => (Array.isArray(node[k]) ? (node[k] as unknown[]).filter(isNode) : []))),
    ]);
  for (const segment of segments) {
    const next: Node[] = [];
    for (const node of expand(nodes)) {
      const props = node.properties;
      if (isNode(props) && isNode(props[segment])) next.push(props[segment] as Node);
      if (/^\d+$/.test(segment) && isNode(node.items)) next.push(node.items);
    }
    nodes = next;
    if (nodes.length === 0) return [];
  }
  return expand(nodes);
}

/** The names a pointer's parent offers at its last segment (for 'did you mean'). */
export function namesAt(schema: unknown, pointer: string): string[] {
  const parent = pointer.slice(0, pointer.lastIndexOf('/'));
  return [...new Set(schemasAt(schema, parent).flatMap((node) => (isNode(node.properties) ? Object.keys(node.properties) : [])))];
}

/**
 * The result codes an operation's answer lists: the enum, const or examples of the property
 * resultFrom names (schemas/api/common/loginResult.json lists them in resultCode.examples).
 * `open` when the answer has that property without listing values: any code may come.
 * An answer without the property always means SUCCESS (the engine's default).
 */
const codesOf = new WeakMap<object, Map<string, { codes: string[]; open: boolean; found: boolean }>>();
export function resultCodesOf(project: ContractProject, operation: string, resultFrom = '/resultCode'): { codes: string[]; open: boolean; found: boolean } {
  const op = project.operations[operation];
  if (!op) return { codes: [], open: true, found: false };
  let known = codesOf.get(op);
  if (!known) codesOf.set(op, (known = new Map()));
  let result = known.get(resultFrom);
  if (!result) known.set(resultFrom, (result = computeCodes(project, op, resultFrom)));
  return result;
}

function computeCodes(project: ContractProject, op: ContractOperation, resultFrom: string): { codes: string[]; open: boolean; found: boolean } {
  const schema = op ? contractSchema(project, op, 'response') : undefined;
  if (schema === undefined) return { codes: [], open: true, found: false };
  const nodes = schemasAt(schema, resultFrom);
  const codes = new Set<string>();
  let listed = false;
  for (const node of nodes) {
    for (const list of [node.enum, node.examples, node.const === undefined ? undefined : [node.const]]) {
      if (!Array.isArray(list)) continue;
      listed = true;
      for (const v of list) if (typeof v === 'string') codes.add(v);
    }
  }
  return { codes: [...codes], open: nodes.length > 0 && !listed, found: nodes.length > 0 };
}

/**
 * An outcome table against its operation's contract: each result code is one the answer can carry
 * (or a transport code), each $response pointer names a field of the answer, resultFrom too.
 */
export function contractProblems(
  project: ContractProject,
  operation: string,
  resultFrom: string | undefined,
  outcomes: Outcomes | undefined,
  pointer: string,
  report: Report,
  resultFromAt?: string,
): void {
  const op = project.operations[operation];
  if (!op) return;
  const response = contractSchema(project, op, 'response');
  if (response === undefined) return;
  const { codes, open, found } = resultCodesOf(project, operation, resultFrom);
  if (resultFromAt && resultFrom && !found) {
    report(
      resultFromAt,
      `the answer of operation "${operation}" has no "${resultFrom}"`,
      closest(resultFrom.slice(1), namesAt(response, resultFrom)) && `/${closest(resultFrom.slice(1), namesAt(response, resultFrom))}`,
    );
  }
  for (const [code, outcome] of Object.entries(outcomes ?? {})) {
    const at = `${pointer}/${escapePointer(code)}`;
    if (code !== '*' && !open && !isTransportCode(code) && !codes.includes(code)) {
      const listed = codes.length > 8 ? `${codes.slice(0, 8).join(', ')} ... (${codes.length} in all)` : codes.join(', ') || 'SUCCESS only';
      report(
        at,
        `operation "${operation}" never answers "${code}" (schemas/api/${operation}.json lists: ${listed}; any call may also end in NETWORK_ERROR, TIMEOUT, HTTP_<status>, INVALID_RESPONSE)`,
        closest(code, [...codes, ...TRANSPORT_CODES]),
      );
    }
    responseReads(outcome, at, (p, read) => {
      if (schemasAt(response, read).length > 0) return;
      const last = read.slice(read.lastIndexOf('/') + 1);
      const hint = closest(last, namesAt(response, read));
      report(p, `the answer of operation "${operation}" has no "${read}"`, hint && `$response${read.slice(0, read.lastIndexOf('/') + 1)}${hint}`);
    });
  }
}

/** Every "$response/..." source inside an outcome, with its pointer. */
function responseReads(node: unknown, pointer: string, visit: (pointer: string, read: string) => void): void {
  if (typeof node === 'string') {
    if (node.startsWith('$response/')) visit(pointer, node.slice('$response'.length));
  } else if (Array.isArray(node)) node.forEach((item, i) => responseReads(item, `${pointer}/${i}`, visit));
  else if (node !== null && typeof node === 'object')
    for (const [key, value] of Object.entries(node)) responseReads(value, `${pointer}/${escapePointer(key)}`, visit);
}
