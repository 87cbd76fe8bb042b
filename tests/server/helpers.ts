import Ajv from 'ajv';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { Challenge } from 'altcha-lib/types';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { buildApp, type BuildAppOptions } from '../../server/app';
import { addCommonSchemas, loadContract } from '../../server/contract';
import type { SqlParams } from '../../server/db/data';
import type { Argon2Cost } from '../../server/crypto/passwords';
import { newStore } from './test-database';

export const PASSWORD = 'Demo-Passw0rd!';
/** argon2id at its smallest: tests hash a lot (the production cost has its own timing test). */
export const TEST_PASSWORD_COST: Argon2Cost = { memoryCost: 64, timeCost: 1, parallelism: 1 };
export const TEST_APP_SECRET = 'test-app-secret-0123456789-abcdefghijklmnop';

/**
 * A fresh server with the demo tenant (dev tools on, cheap argon2id) on a new, empty database of the
 * run's engine (test-database.ts: in-memory SQLite, or a PostgreSQL schema of its own), unless the
 * options name one (dbPath, databaseUrl, data: a store two apps share).
 */
export async function makeApp(options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const named = options.dbPath !== undefined || options.databaseUrl !== undefined || options.data !== undefined;
  const where = named ? {} : (await newStore()).options;
  return buildApp({
    passwordCost: TEST_PASSWORD_COST,
    nodeEnv: 'test',
    devTools: true,
    publicPort: 8080,
    logger: process.env.FD_TEST_LOG ? { level: 'error' } : false,
    ...where,
    ...options,
  });
}

/** The first row of a statement on the app's database (either engine: portable SQL, docs/data-layer.md). */
export async function row<T = Record<string, unknown>>(app: FastifyInstance, sql: string, params: SqlParams = []): Promise<T> {
  const found = await app.fd.data.get<T>(sql, params);
  if (found === undefined) throw new Error(`no row: ${sql}`);
  return found;
}

/** `SELECT count(*) AS n …` on the app's database. */
export async function count(app: FastifyInstance, sql: string, params: SqlParams = []): Promise<number> {
  return (await row<{ n: number }>(app, sql, params)).n;
}

/** A production-like server: dev tools off, so a secret and a public URL are required. */
export function makeProductionApp(options: BuildAppOptions = {}): Promise<FastifyInstance> {
  return makeApp({ nodeEnv: 'production', devTools: false, appSecret: TEST_APP_SECRET, publicUrl: 'https://signin.example.test', ...options });
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

/**
 * The browser-binding nonce cookie (fd_bind, server/services/browserBinding.ts) of each app's test
 * client: requests made with post()/send() carry it as one browser would, so tokens issued to the
 * client work; a test of another client passes its own `cookies` (or uses app.inject directly).
 */
const jars = new WeakMap<FastifyInstance, Record<string, string>>();
const BIND_COOKIES = ['fd_bind', '__Host-fd_bind'];

/** app.inject as one browser: the client's bind cookie goes along (unless the test sets one) and a new one is kept. */
export async function send(app: FastifyInstance, options: InjectOptions): Promise<LightMyRequestResponse> {
  const jar = jars.get(app) ?? {};
  const own = options.cookies ?? {};
  const carried = Object.keys(own).some((name) => BIND_COOKIES.includes(name)) ? {} : jar;
  const res = await app.inject({ ...options, cookies: { ...carried, ...own } });
  const raw = res.headers['set-cookie'];
  for (const c of Array.isArray(raw) ? raw : raw ? [raw] : []) {
    const name = c.slice(0, c.indexOf('='));
    if (BIND_COOKIES.includes(name)) jars.set(app, { ...jar, [name]: cookieValue(c) });
  }
  return res;
}

export async function post(app: FastifyInstance, url: string, payload: unknown, extra: Partial<InjectOptions> = {}): Promise<LightMyRequestResponse> {
  return send(app, { method: 'POST', url, payload: payload as InjectOptions['payload'], ...extra } as InjectOptions);
}

/** A different source address per call (each registration or reset request from its own visitor: the mail-load bot check counts per address). */
let nextHost = 1;
export const anyAddress = (): Partial<InjectOptions> => ({ remoteAddress: `198.18.${Math.floor(nextHost / 250) % 250}.${(nextHost++ % 250) + 1}` });

/** The test client's bind cookies (to present them on a request made another way). */
export function bindCookies(app: FastifyInstance): Record<string, string> {
  return { ...(jars.get(app) ?? {}) };
}

export async function login(app: FastifyInstance, email: string, password = PASSWORD, extra: Record<string, unknown> = {}) {
  const res = await post(app, '/ws/account/login', { email, password, ...extra });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as Record<string, unknown>;
  expectContract('login', body);
  return { res, body };
}

/** A solved ALTCHA challenge for the action, as the browser sends it (base64 JSON {challenge, solution}). */
export async function botToken(app: FastifyInstance, action = 'login', extra: Partial<InjectOptions> = {}): Promise<string> {
  const res = await post(app, '/ws/bot-check/challenge', { action }, extra);
  expect(res.statusCode, res.body).toBe(200);
  const challenge = res.json() as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  expect(solution).not.toBeNull();
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

/** The session Set-Cookie header (fd_session, or __Host-fd_session on https), if any. */
export function sessionCookie(res: LightMyRequestResponse): string | undefined {
  const raw = res.headers['set-cookie'];
  const list = Array.isArray(raw) ? raw : raw ? [raw] : [];
  return list.find((c) => c.startsWith('fd_session=') || c.startsWith('__Host-fd_session='));
}

export function cookieValue(setCookie: string): string {
  const pair = setCookie.split(';')[0]!;
  return pair.slice(pair.indexOf('=') + 1);
}
