/**
 * GET /ws/openapi.json: a valid OpenAPI 3.1 document (checked by @readme/openapi-parser against the
 * 3.1 schema and its rules) in which every operation of schemas/api appears with its method, path,
 * parameters, body and response.
 */
import { compileErrors, validate } from '@readme/openapi-parser';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOperations, pathParams } from '../../server/contract';
import { buildOpenApiDocument } from '../../server/openapi';
import { expectContract, makeProductionApp } from './helpers';

type Doc = ReturnType<typeof buildOpenApiDocument>;
type OperationObject = {
  operationId: string;
  parameters?: { name: string; in: string; required: boolean }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }>; $ref?: string }>;
};

let app: FastifyInstance;
let doc: Doc;
beforeAll(async () => {
  app = await makeProductionApp();
  const res = await app.inject({ url: '/ws/openapi.json' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  doc = res.json() as Doc;
});
afterAll(async () => {
  await app.close();
});

describe('GET /ws/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document, and answers its own contract', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    expectContract('openApiDocument', doc);
  });

  it('the validator is not a rubber stamp: a broken document fails', async () => {
    const broken = structuredClone(doc) as Record<string, unknown>;
    (broken.paths as Record<string, Record<string, unknown>>)['/ws/account/login'] = { post: { responses: 'none' } };
    expect((await validate(broken as never)).valid).toBe(false);
    const badRef = structuredClone(doc) as Record<string, unknown>;
    ((badRef.components as Record<string, Record<string, unknown>>).schemas as Record<string, unknown>).loginResult = undefined;
    delete ((badRef.components as Record<string, Record<string, unknown>>).schemas as Record<string, unknown>).loginResult;
    expect((await validate(badRef as never)).valid).toBe(false);
  });

  it('has every operation of schemas/api at its method and path, with its parameters, body and response', () => {
    const operations = [...loadOperations().values()];
    expect(operations.length).toBeGreaterThan(30);
    const ids: string[] = [];
    for (const op of operations) {
      const item = doc.paths[op.path] as Record<string, OperationObject> | undefined;
      const o = item?.[op.method.toLowerCase()];
      expect(o, `${op.method} ${op.path}`).toBeDefined();
      if (!o) continue;
      ids.push(o.operationId);
      expect(o.operationId).toBe(op.operation);
      const ok = o.responses['200'];
      expect(Object.keys(ok?.content ?? {}), op.operation).toEqual([op.responseMediaType ?? 'application/json']);
      expect(o.responses['4XX']).toEqual({ $ref: '#/components/responses/Error' });
      if (['POST', 'PUT', 'PATCH'].includes(op.method)) {
        if (op.request) expect(o.requestBody?.content['application/json']?.schema, op.operation).toBeDefined();
      } else {
        const props = Object.keys((op.request?.properties as object | undefined) ?? {});
        expect((o.parameters ?? []).map((p) => p.name).sort(), op.operation).toEqual(props.sort());
        for (const name of pathParams(op.path)) expect(o.parameters?.find((p) => p.name === name)).toMatchObject({ in: 'path', required: true });
      }
    }
    expect(ids.sort()).toEqual(operations.map((op) => op.operation).sort());
    const login = (doc.paths['/ws/account/login'] as Record<string, OperationObject>).post;
    expect(JSON.stringify(login?.responses['200'])).toContain('#/components/schemas/loginResult');
    expect(JSON.stringify(doc)).not.toMatch(/"\$ref":"common\//);
  });
});
