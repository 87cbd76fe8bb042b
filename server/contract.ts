/**
 * The API contract (schemas/api) as the server uses it.
 *
 * - Every `schemas/api/<operation>.json` is one operation (see docs/architecture.md).
 * - Shared pieces are `schemas/api/common/<name>.json`; operation files reference them as
 *   "common/<name>.json", common files reference each other by sibling name ("mfaType.json").
 *   Registered with ajv under the stable id "common/<name>.json", relative refs of a schema without
 *   `$id` resolve to exactly that id, so `ajv.compile(op.response)` works unchanged.
 * - For Fastify, request schemas are inlined (all common refs replaced by their content, by the
 *   catalogue's one inliner), so route validation needs no shared-schema registry.
 */
import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import addValidators from '@frontdoor/validators';
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';
import { ROOT } from './paths.js';
import { inlineRefs } from '../catalogue/check/refs.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type JsonSchema = Record<string, unknown>;

export interface Operation {
  operation: string;
  method: HttpMethod;
  path: string;
  summary: string;
  /** A 2xx body that is not JSON (server-sent events); absent: application/json. */
  responseMediaType?: 'text/event-stream';
  request: JsonSchema | null;
  response: JsonSchema;
}

export const CONTRACT_DIR = path.join(ROOT, 'schemas/api');
export const META_SCHEMA_FILE = 'operation.schema.json';

function readJson(file: string): unknown {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** All operations, keyed by operation name. */
export function loadOperations(dir: string = CONTRACT_DIR): Map<string, Operation> {
  const ops = new Map<string, Operation>();
  for (const name of fs.readdirSync(dir).sort()) {
    if (!name.endsWith('.json') || name === META_SCHEMA_FILE) continue;
    const op = readJson(path.join(dir, name)) as Operation;
    ops.set(op.operation, op);
  }
  return ops;
}

/** Shared schemas keyed by their stable id "common/<name>.json". */
export function loadCommonSchemas(dir: string = CONTRACT_DIR): Map<string, JsonSchema> {
  const out = new Map<string, JsonSchema>();
  const commonDir = path.join(dir, 'common');
  if (!fs.existsSync(commonDir)) return out;
  for (const name of fs.readdirSync(commonDir).sort()) {
    if (name.endsWith('.json')) out.set(`common/${name}`, readJson(path.join(commonDir, name)) as JsonSchema);
  }
  return out;
}

/** Register the shared schemas with an ajv instance under their stable ids. */
export function addCommonSchemas(ajv: Ajv, dir: string = CONTRACT_DIR): Ajv {
  for (const [id, schema] of loadCommonSchemas(dir)) {
    if (!ajv.getSchema(id)) ajv.addSchema(schema, id);
  }
  return ajv;
}

/** Fastify path syntax for a contract path: /account/register/{code} -> /account/register/:code */
export function fastifyPath(p: string): string {
  return p.replace(/\{([A-Za-z][A-Za-z0-9]*)\}/g, ':$1');
}

export function pathParams(p: string): string[] {
  return [...p.matchAll(/\{([A-Za-z][A-Za-z0-9]*)\}/g)].map((m) => m[1] as string);
}

export interface Contract {
  operations: Map<string, Operation>;
  get(operation: string): Operation;
  /** Fastify route schema (body, or querystring + params) for an operation. */
  routeSchema(operation: string): FastifySchema;
}

export function loadContract(dir: string = CONTRACT_DIR): Contract {
  const operations = loadOperations(dir);
  const get = (name: string): Operation => {
    const op = operations.get(name);
    if (!op) throw new Error(`contract: unknown operation ${name}`);
    return op;
  };
  return {
    operations,
    get,
    routeSchema(name) {
      const op = get(name);
      if (!op.request) return {};
      // The catalogue's one $ref inliner (catalogue/check/refs.ts): common refs resolve beside the file that names them.
      const req = inlineRefs(op.request, dir, dir) as JsonSchema;
      if (op.method === 'GET' || op.method === 'DELETE') {
        const names = pathParams(op.path);
        const props = (req.properties ?? {}) as Record<string, JsonSchema>;
        const required = (req.required ?? []) as string[];
        const pick = (keep: (k: string) => boolean): JsonSchema => {
          const properties = Object.fromEntries(Object.entries(props).filter(([k]) => keep(k)));
          const req2 = required.filter((k) => keep(k));
          return { type: 'object', additionalProperties: false, properties, ...(req2.length ? { required: req2 } : {}) };
        };
        const schema: FastifySchema = { querystring: pick((k) => !names.includes(k)) };
        if (names.length) schema.params = pick((k) => names.includes(k));
        return schema;
      }
      return { body: req };
    },
  };
}

/**
 * Validator compiler: bodies strictly (no coercion, no removal of unknown fields), query strings and
 * path parameters with type coercion. allErrors off.
 */
export function createValidatorCompiler(): FastifySchemaCompiler<JsonSchema> {
  const base = { allErrors: false, removeAdditional: false as const, useDefaults: false, strict: false };
  // The shared validators (@frontdoor/validators): the same formats and keywords as the browser.
  const bodyAjv = addValidators(new Ajv({ ...base, coerceTypes: false }));
  const queryAjv = addValidators(new Ajv({ ...base, coerceTypes: true }));
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? bodyAjv : queryAjv;
    return ajv.compile(schema) as ReturnType<FastifySchemaCompiler<JsonSchema>>;
  };
}
