/**
 * Duo Universal Prompt against a local double of Duo's OIDC Auth API (HTTPS, a test certificate that
 * only the test's agent trusts: the SDK pins Duo's CAs). The double checks each request as Duo
 * documents it: health check and token calls are form posts with client_id and a client_assertion JWT
 * (HS512 with the client secret, iss = sub = client ID, aud = the endpoint's URL, jti, exp); the
 * authorize URL carries a request JWT (HS512) with duo_uname, state and redirect_uri; the token call
 * has grant_type=authorization_code, the code, the redirect_uri and the client assertion type. It
 * answers an id_token signed with the client secret, as Duo does.
 */
import https from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDuo, createDuoUniversal, type DuoUniversal } from '../../../server/duo/universal';
import { CLIENT_ID, SECRET, startDuoDouble } from './duo-double';
import { openRunDatabase, type RunDatabase } from '../test-database';

const REDIRECT = 'https://signin.acme.test/duo/callback';

let db: RunDatabase;
let duoDouble: Awaited<ReturnType<typeof startDuoDouble>>;
let duo: DuoUniversal;
beforeAll(async () => {
  db = await openRunDatabase();
  duoDouble = await startDuoDouble(REDIRECT);
  duo = createDuoUniversal({ clientId: CLIENT_ID, clientSecret: SECRET, apiHost: duoDouble.host }, { redirectUrl: REDIRECT, httpsAgent: duoDouble.agent });
}, 30_000);
afterAll(async () => {
  await duoDouble?.close();
  await db?.dispose();
});

/** The browser's trip: start → Duo's authorize URL (the double decides) → the callback's query. */
async function visitDuo(username: string, nonce: string, decision: 'allow' | 'deny' = 'allow') {
  const start = await duo.start(db, { loginTokenHash: `lt-${username}`, username, browserNonce: nonce, now: Date.now() });
  if (!start.ok) throw new Error(start.detail);
  const url = new URL(start.url);
  url.searchParams.set('test_decision', decision);
  const location = await new Promise<string>((resolve, reject) =>
    https
      .get(url, { agent: duoDouble.agent }, (r) => {
        r.resume();
        resolve(r.headers.location ?? '');
      })
      .on('error', reject),
  );
  const back = new URL(location);
  return { start: url, state: back.searchParams.get('state'), code: back.searchParams.get('duo_code') };
}

describe('Duo Universal Prompt', () => {
  it('builds Duo’s authorize URL and completes the callback by exchanging the code (the control)', async () => {
    const trip = await visitDuo('duo@demo.test', 'browser-1');
    expect(`${trip.start.origin}${trip.start.pathname}`).toBe(`https://${duoDouble.host}/oauth/v1/authorize`);
    expect(
      await duo.finish(db, { state: trip.state, code: trip.code, browserNonce: 'browser-1', loginTokenHash: 'lt-duo@demo.test', now: Date.now() }),
    ).toEqual({
      ok: true,
      loginTokenHash: 'lt-duo@demo.test',
      username: 'duo@demo.test',
      device: 'iPhone',
    });
    expect(duoDouble.problems).toEqual([]);
  });

  it('refuses a state used twice, from another browser, for another sign-in, or unknown', async () => {
    const a = await visitDuo('duo@demo.test', 'browser-1');
    expect(await duo.finish(db, { state: a.state, code: a.code, browserNonce: 'browser-1', now: Date.now() })).toMatchObject({ ok: true });
    expect(await duo.finish(db, { state: a.state, code: a.code, browserNonce: 'browser-1', now: Date.now() })).toMatchObject({
      ok: false,
      reason: 'STATE_UNKNOWN',
    });
    const b = await visitDuo('duo@demo.test', 'victim');
    expect(await duo.finish(db, { state: b.state, code: b.code, browserNonce: 'attacker', now: Date.now() })).toMatchObject({
      ok: false,
      reason: 'OTHER_BROWSER',
    });
    const c = await visitDuo('duo@demo.test', 'browser-1');
    expect(await duo.finish(db, { state: c.state, code: c.code, browserNonce: 'browser-1', loginTokenHash: 'lt-someone-else', now: Date.now() })).toMatchObject(
      { ok: false, reason: 'OTHER_SIGN_IN' },
    );
    expect(await duo.finish(db, { state: 'x'.repeat(36), code: 'code-1', browserNonce: 'browser-1', now: Date.now() })).toMatchObject({
      ok: false,
      reason: 'STATE_UNKNOWN',
    });
  });

  it('refuses a denied check and a code Duo does not know', async () => {
    const denied = await visitDuo('duo@demo.test', 'browser-1', 'deny');
    expect(await duo.finish(db, { state: denied.state, code: denied.code, browserNonce: 'browser-1', now: Date.now() })).toMatchObject({
      ok: false,
      reason: 'DENIED',
    });
    const forged = await visitDuo('duo@demo.test', 'browser-1');
    expect(await duo.finish(db, { state: forged.state, code: 'code-forged', browserNonce: 'browser-1', now: Date.now() })).toMatchObject({
      ok: false,
      reason: 'CODE_REJECTED',
      detail: expect.stringMatching(/invalid_grant/),
    });
  });

  it('says Duo is unavailable when its health check fails, without a 500', async () => {
    duoDouble.setHealthy(false);
    try {
      expect(await duo.start(db, { loginTokenHash: 'lt', username: 'duo@demo.test', browserNonce: 'b', now: Date.now() })).toMatchObject({
        ok: false,
        reason: 'DUO_UNAVAILABLE',
      });
    } finally {
      duoDouble.setHealthy(true);
    }
  });

  it("keeps the SDK's pinned certificate authorities: without the test's agent the double is not trusted", async () => {
    const pinned = createDuoUniversal({ clientId: CLIENT_ID, clientSecret: SECRET, apiHost: duoDouble.host }, { redirectUrl: REDIRECT });
    expect(await pinned.start(db, { loginTokenHash: 'lt', username: 'duo@demo.test', browserNonce: 'b', now: Date.now() })).toMatchObject({
      ok: false,
      reason: 'DUO_UNAVAILABLE',
    });
  });
});

describe('Duo settings', () => {
  const check = (env: Record<string, string>) => {
    const problems: string[] = [];
    return { settings: checkDuo(env, problems), problems };
  };
  it('is off without variables, on with all three, and names each mistake', () => {
    expect(check({})).toEqual({ settings: undefined, problems: [] });
    expect(check({ DUO_CLIENT_ID: CLIENT_ID, DUO_CLIENT_SECRET: SECRET, DUO_API_HOST: 'api-1a2b3c4d.duosecurity.com' }).problems).toEqual([]);
    expect(check({ DUO_CLIENT_ID: CLIENT_ID }).problems).toEqual([expect.stringMatching(/missing: DUO_CLIENT_SECRET, DUO_API_HOST/)]);
    expect(check({ DUO_CLIENT_ID: 'short', DUO_CLIENT_SECRET: 'x', DUO_API_HOST: 'https://api.duo.test' }).problems).toHaveLength(3);
  });
});
