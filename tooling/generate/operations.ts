import { join } from 'node:path';
import Ajv from 'ajv';
import standaloneCode from 'ajv/dist/standalone';
import { compile } from 'json-schema-to-typescript';
import type { Project } from '../../catalogue/check/check';
import { inlineRefs } from '../../catalogue/check/refs';
import { banner, withoutAnnotations, type Output } from './output';

/** What the operations' files are made of: the client's table, the response validators, the types. */
interface Operations {
  ajv: Ajv;
  table: string[];
  /** Operations with a response schema (a validator each). */
  validated: string[];
  typeDefs: Record<string, unknown>;
  operationTypes: string[];
}

function collect(root: string, project: Project): Operations {
  const ops: Operations = {
    ajv: new Ajv({ code: { source: true }, strict: false, allErrors: false }),
    table: [],
    validated: [],
    typeDefs: {},
    operationTypes: [],
  };
  const apiDir = join(root, 'schemas/api');
  for (const [name, op] of Object.entries(project.operations).sort(([a], [b]) => a.localeCompare(b))) {
    const request = op.request ? (inlineRefs(op.request, apiDir, join(root, 'schemas')) as Record<string, unknown>) : null;
    const response = op.response ? (inlineRefs(op.response, apiDir, join(root, 'schemas')) as Record<string, unknown>) : null;
    if (response) {
      ops.ajv.addSchema(withoutAnnotations(response) as Record<string, unknown>, name);
      ops.validated.push(name);
    }
    const props = Object.keys((request?.properties as Record<string, unknown> | undefined) ?? {});
    const hasBody = op.method !== 'GET' && op.method !== 'DELETE' && request !== null;
    ops.table.push(`  ${name}: op(${JSON.stringify(op.method)}, ${JSON.stringify(op.path)}, ${hasBody}, ${props.includes('recaptchaToken')}),`);
    const typeName = name.charAt(0).toUpperCase() + name.slice(1);
    if (request) ops.typeDefs[`${typeName}Request`] = { ...request, title: `${typeName}Request` };
    if (response) ops.typeDefs[`${typeName}Response`] = { ...response, title: `${typeName}Response` };
    ops.operationTypes.push(
      `  ${name}: { request: ${request ? `${typeName}Request` : 'Record<string, never>'}; response: ${response ? `${typeName}Response` : 'unknown'} };`,
    );
  }
  return ops;
}

/** The client's table of operations and the loader of their response validators (operations.ts). */
const OPERATIONS_MODULE = (table: string[], validatorLoaders: string[]) => [
  banner('schemas/api/'),
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
];

/** TypeScript types of every request and response, and ApiOperations: each operation to its two types. */
async function apiTypes(ops: Operations): Promise<string> {
  // One compile for all operations, so shared pieces are declared once.
  const typesRoot = { title: 'ApiOperations', type: 'object', definitions: ops.typeDefs, additionalProperties: false } as Parameters<typeof compile>[0];
  const types = await compile(typesRoot, 'ApiOperations', {
    bannerComment: banner('schemas/api/'),
    unreachableDefinitions: true,
    additionalProperties: false,
    strictIndexSignatures: true,
  });
  // json-schema-to-typescript writes a title its own way ('U2fLoginRequest' becomes U2FLoginRequest).
  const declared = new Map([...types.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => [m[1]!.toLowerCase(), m[1]!]));
  const operationTypes = ops.operationTypes.map((line) => line.replace(/\b(\w+(?:Request|Response))\b/g, (name) => declared.get(name.toLowerCase()) ?? name));
  return `${types}\n/** Every operation of schemas/api by name: its request and response types. */\nexport interface ApiOperations {\n${operationTypes.join('\n')}\n}\n`;
}

/**
 * Operations: the table the client calls by name; one small module per response validator, loaded on
 * the operation's first call (the entry chunk carries none of them: all of them together were the
 * largest piece of /login's bundle); and the API's types, which the typed client and the server's
 * handlers use.
 */
export async function writeOperations(out: Output, dir: string, root: string, project: Project): Promise<void> {
  const ops = collect(root, project);
  const validatorLoaders = ops.validated.map((name) => {
    out.write(join(dir, 'api', `${name}.cjs`), `${banner(`schemas/api/${name}.json`)}\n${standaloneCode(ops.ajv, { validate: name })}`);
    return `  ${name}: () => import('./api/${name}.cjs'),`;
  });
  out.write(join(dir, 'operations.ts'), OPERATIONS_MODULE(ops.table, validatorLoaders).join('\n'));
  out.write(join(dir, 'api-types.ts'), await apiTypes(ops));
}
