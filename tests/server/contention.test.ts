/**
 * Heavy contention on one account, over two instances (two apps on one database; the vitest project
 * `postgres` runs this file on PostgreSQL, `app` on a shared SQLite file): hundreds of concurrent
 * guesses must queue on the account's lock (db/data.ts TxOptions.lock), never answer 5xx, and the
 * limits stay exact: a sign-in code's five tries, the account's twenty wrong codes an hour, the bot
 * check after three failed passwords, and a code that signs in once.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BuildAppOptions } from '../../server/app';
import type { Database } from '../../server/db/data';
import { openPostgres } from '../../server/db/postgres';
import { LIMITS } from '../../server/services/limits';
import { bindCookies, botToken, count, login, makeApp, post, TEST_APP_SECRET } from './helpers';
import { totp } from './demo-helpers';
import { newStore, TEST_ENGINE, type TestStore } from './test-database';

const CONCURRENT = 200;
const EMAIL = 'tech@demo.test';

/** The wall clock's time at start (a solved bot check is also checked against the wall clock); tests move it. */
const START = Date.now();
let clock = START;
let store: TestStore;
let a: FastifyInstance;
let b: FastifyInstance;

/**
 * On PostgreSQL each instance gets a data layer that never runs a transaction again (maxTxAttempts 1):
 * a transaction that failed to serialize would surface as a 503 here, so the test sees whether the
 * account's transactions really queue rather than conflict (with the default 20 tries it could not tell).
 */
const noRetries: Database[] = [];
function where(): Pick<BuildAppOptions, 'dbPath' | 'databaseUrl' | 'data'> {
  if (store.options.databaseUrl === undefined) return store.options;
  const data = openPostgres({ connectionString: store.options.databaseUrl, poolSize: 4, maxTxAttempts: 1 });
  noRetries.push(data);
  return { data };
}

beforeAll(async () => {
  store = await newStore({ shared: true });
  const options = { appSecret: TEST_APP_SECRET, now: () => clock, rateLimit: false as const };
  const first = where();
  await first.data?.migrate();
  a = await makeApp({ ...first, ...options });
  b = await makeApp({ ...where(), ...options, seed: false });
}, 60_000);

afterAll(async () => {
  await a?.close();
  await b?.close();
  await Promise.all(noRetries.map((data) => data.close()));
  await store?.dispose();
});

beforeEach(async () => {
  clock = START;
  await post(a, '/dev/reset', {});
});

/** Request i goes to A or B in turn, from an address of its own, as the browser that signed in on A. */
function spread(url: string, payload: (i: number) => Record<string, unknown>): Promise<LightMyRequestResponse[]> {
  const cookies = bindCookies(a);
  return Promise.all(
    Array.from({ length: CONCURRENT }, (_, i) =>
      (i % 2 === 0 ? a : b).inject({ method: 'POST', url, payload: payload(i), cookies, remoteAddress: `198.51.${Math.floor(i / 250)}.${(i % 250) + 1}` }),
    ),
  );
}

/** resultCode → how many answered it; a 5xx (or any non-200) counts under its status. */
function tally(answers: LightMyRequestResponse[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const res of answers) {
    const key = res.statusCode === 200 ? String((res.json() as { resultCode?: unknown }).resultCode) : `HTTP ${res.statusCode}`;
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}

const wrongCode = (right: string, i: number) => String((Number(right) + 1 + i) % 1_000_000).padStart(6, '0');
const codeFailures = () => count(a, "SELECT COALESCE(SUM(count), 0) AS n FROM counters WHERE scope = 'code'");
const sessions = () => count(a, 'SELECT count(*) AS n FROM sessions');

describe(`${CONCURRENT} concurrent attempts on one account over two instances (${TEST_ENGINE})`, () => {
  it("wrong codes: a token's five tries exactly, then the account's twenty an hour; never a 5xx", async () => {
    const right = await totp(clock);
    for (let round = 0; round < LIMITS.codeFailuresPerAccountPerHour / LIMITS.triesPerCode + 1; round += 1) {
      const { body } = await login(a, EMAIL);
      expect(body).toMatchObject({ resultCode: 'MFA_REQUIRED', mfaType: 'TOTP' });
      const answers = tally(await spread('/ws/account/mfa-login', (i) => ({ loginToken: body.loginToken, code: wrongCode(right, i) })));
      // Four tokens take five wrong tries each; the fifth token finds the account's budget spent.
      const tried = round < LIMITS.codeFailuresPerAccountPerHour / LIMITS.triesPerCode ? LIMITS.triesPerCode : 0;
      expect(answers).toEqual({ ...(tried ? { INVALID_MFA_CODE: tried } : {}), INVALID_LOGIN_TOKEN: CONCURRENT - tried });
    }
    expect(await codeFailures()).toBe(LIMITS.codeFailuresPerAccountPerHour);

    // Control: the budget refuses even the right code now; an hour later the owner signs in on B.
    const blocked = (await login(a, EMAIL)).body.loginToken;
    expect((await post(b, '/ws/account/mfa-login', { loginToken: blocked, code: right }, { cookies: bindCookies(a) })).json()).toEqual({
      resultCode: 'INVALID_LOGIN_TOKEN',
    });
    clock += 60 * 60_000 + 1;
    const token = (await login(a, EMAIL)).body.loginToken;
    const res = await post(b, '/ws/account/mfa-login', { loginToken: token, code: await totp(clock) }, { cookies: bindCookies(a) });
    expect(res.json()).toMatchObject({ resultCode: 'SUCCESS' });
  }, 120_000);

  it('the right code sent 200 times at once signs in exactly once', async () => {
    const { body } = await login(a, EMAIL);
    const before = await sessions();
    const code = await totp(clock);
    const answers = tally(await spread('/ws/account/mfa-login', () => ({ loginToken: body.loginToken, code })));
    expect(answers.SUCCESS).toBe(1);
    expect(Object.keys(answers).filter((k) => k.startsWith('HTTP'))).toEqual([]);
    // The other tries reserved before the token was spent find the TOTP step used (five tries in all).
    expect((answers.INVALID_MFA_CODE ?? 0) + 1).toBeLessThanOrEqual(LIMITS.triesPerCode);
    expect(await sessions()).toBe(before + 1);
  }, 120_000);

  it('wrong passwords: three failures, then the bot check for every other request; never a 5xx', async () => {
    const answers = tally(await spread('/ws/account/login', () => ({ email: EMAIL, password: 'Wrong-Passw0rd!' })));
    expect(answers).toEqual({ AUTHENTICATION_FAILURE: LIMITS.botCheckAfterFailures, HUMAN_VERIFICATION_FAILED: CONCURRENT - LIMITS.botCheckAfterFailures });
    expect(await count(a, "SELECT count AS n FROM counters WHERE scope = 'login' AND key = ?", [EMAIL])).toBe(LIMITS.botCheckAfterFailures);
    // Control: a failure count that is exact leaves the owner's path as it was: a solved bot check and the right password.
    const { body } = await login(b, EMAIL, undefined, { recaptchaToken: await botToken(b) });
    expect(body).toMatchObject({ resultCode: 'MFA_REQUIRED' });
  }, 120_000);
});
