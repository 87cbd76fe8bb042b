/**
 * The API contract (schemas/api) as an OpenAPI 3.1 document, served at GET /ws/openapi.json and
 * written by `npm run openapi`. Nothing is written by hand here: each operation file becomes one
 * path item (its request as the JSON body, or as path and query parameters; its response as the
 * 200 body), each schemas/api/common file one components.schemas entry, `$ref`s pointing at them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CONTRACT_DIR, loadCommonSchemas, loadOperations, pathParams, type JsonSchema, type Operation } from './contract.js';
import { ROOT } from './paths.js';

export type OpenApiDocument = Record<string, unknown> & { openapi: string; paths: Record<string, Record<string, unknown>> };

/** "common/loginResult.json" (or a sibling "loginResult.json" inside common/) -> "#/components/schemas/loginResult". */
function componentRef(ref: string): string {
  return `#/components/schemas/${ref.replace(/^(\.\/)?(common\/)?/, '').replace(/\.json$/, '')}`;
}

/** Deep copy with contract `$ref`s pointed at components (2020-12 JSON Schema, which OpenAPI 3.1 uses, keeps draft-07's keywords used here). */
function rewrite(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rewrite);
  if (!schema || typeof schema !== 'object') return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema as JsonSchema)) {
    if (key === '$schema' || key === '$id') continue;
    out[key] = key === '$ref' && typeof value === 'string' && !value.startsWith('#') && !value.includes(':') ? componentRef(value) : rewrite(value);
  }
  return out;
}

/** The first sentence of a summary (OpenAPI's summary is short; the whole text goes to description). */
function firstSentence(text: string): string {
  const m = /^(.+?[.!?])(\s|$)/.exec(text);
  const s = (m?.[1] ?? text).trim();
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
}

function parameters(op: Operation): unknown[] {
  const request = op.request as { properties?: Record<string, unknown>; required?: string[] } | null;
  if (!request?.properties) return [];
  const inPath = new Set(pathParams(op.path));
  return Object.entries(request.properties).map(([name, schema]) => ({
    name,
    in: inPath.has(name) ? 'path' : 'query',
    required: inPath.has(name) || (request.required ?? []).includes(name),
    schema: rewrite(schema),
  }));
}

function operationObject(op: Operation): Record<string, unknown> {
  const hasBody = op.method === 'POST' || op.method === 'PUT' || op.method === 'PATCH';
  const mediaType = op.responseMediaType ?? 'application/json';
  return {
    operationId: op.operation,
    summary: firstSentence(op.summary),
    description: op.summary,
    ...(hasBody ? {} : { parameters: parameters(op) }),
    ...(hasBody && op.request ? { requestBody: { required: true, content: { 'application/json': { schema: rewrite(op.request) } } } } : {}),
    responses: {
      '200': {
        description:
          mediaType === 'text/event-stream'
            ? 'A stream of server-sent events; each event carries this JSON as its data.'
            : 'The outcome (business results are resultCode values).',
        content: { [mediaType]: { schema: rewrite(op.response) } },
      },
      '4XX': { $ref: '#/components/responses/Error' },
      '5XX': { $ref: '#/components/responses/Error' },
    },
  };
}

function packageVersion(): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

export function buildOpenApiDocument(dir: string = CONTRACT_DIR): OpenApiDocument {
  const operations = [...loadOperations(dir).values()].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    paths[op.path] = { ...paths[op.path], [op.method.toLowerCase()]: operationObject(op) };
  }
  const schemas: Record<string, unknown> = {};
  for (const [id, schema] of loadCommonSchemas(dir)) schemas[componentRef(id).slice('#/components/schemas/'.length)] = rewrite(schema);
  if (!schemas.error) throw new Error('schemas/api/common/error.json is missing: the error responses refer to it');
  return {
    openapi: '3.1.0',
    info: {
      title: 'Front Door API',
      version: packageVersion(),
      description:
        'The pre-login API of the reference server, generated from schemas/api. Business outcomes are HTTP 200 with a resultCode; bad input is a 4xx {error, message, field?}.',
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    paths,
    components: {
      schemas,
      responses: {
        Error: {
          description: 'Bad input, refused or failed: {error, message, field?}.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/error' } } },
        },
      },
    },
  };
}
