import Ajv from 'ajv';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { buildApp, type BuildAppOptions } from '../../server/app';
import { addCommonSchemas, loadContract } from '../../server/contract';

export const PASSWORD = 'Demo-Passw0rd!';

/** A fresh server on an in-memory database with the demo tenant (cheap scrypt). */
export function makeApp(options: BuildAppOptions = {}): Promise<FastifyInstance> {
  return buildApp({ dbPath: ':memory:', scryptCost: 1024, nodeEnv: 'test', publicPort: 8080, logger: false, ...options });
}

const contract = loadContract();
const ajv = addCommonSchemas(new Ajv({ allErrors: true, strict: false }));

/** Asserts that a 2xx body matches the operation's response schema in schemas/api. */
export function expectContract(operation: string, body: unknown): void {
  const validate = ajv.compile(contract.get(operation).response);
  const ok = validate(body);
  expect(validate.errors ?? [], `${operation} response: ${JSON.stringify(body)}`).toEqual([]);
  expect(ok).toBe(true);
}

export async function post(app: FastifyInstance, url: string, payload: unknown, extra: Partial<InjectOptions> = {}): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url, payload: payload as InjectOptions['payload'], ...extra } as InjectOptions);
}

export async function login(app: FastifyInstance, email: string, password = PASSWORD, extra: Record<string, unknown> = {}) {
  const res = await post(app, '/ws/account/login', { email, password, ...extra });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as Record<string, unknown>;
  expectContract('login', body);
  return { res, body };
}

export async function botToken(app: FastifyInstance, action = 'login'): Promise<string> {
  const res = await post(app, '/ws/bot-check/token', { action });
  expect(res.statusCode).toBe(200);
  return (res.json() as { token: string }).token;
}

/** The fd_session Set-Cookie header, if any. */
export function sessionCookie(res: LightMyRequestResponse): string | undefined {
  const raw = res.headers['set-cookie'];
  const list = Array.isArray(raw) ? raw : raw ? [raw] : [];
  return list.find((c) => c.startsWith('fd_session='));
}

export function cookieValue(setCookie: string): string {
  return setCookie.split(';')[0]!.slice('fd_session='.length);
}
