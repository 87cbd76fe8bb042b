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
import type { AddressInfo } from 'node:net';
import { jwtVerify, SignJWT } from 'jose';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/data';
import { openSqlite } from '../../../server/db/sqlite';
import { checkDuo, createDuoUniversal, type DuoUniversal } from '../../../server/duo/universal';

const CLIENT_ID = 'DIXXXXXXXXXXXXXXXXXX';
const SECRET = 'deadbeefdeadbeefdeadbeefdeadbeefdeadbeef';
const REDIRECT = 'https://signin.acme.test/duo/callback';
const key = new TextEncoder().encode(SECRET);

interface Issued {
  username: string;
  decision: 'allow' | 'deny';
}

async function startDuoDouble() {
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keySize: 2048,
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  const problems: string[] = [];
  const codes = new Map<string, Issued>();
  let healthy = true;
  let host = '';
  const checkAssertion = async (assertion: string | null, endpoint: string) => {
    if (!assertion) return problems.push(`${endpoint}: no client_assertion`);
    try {
      const { payload, protectedHeader } = await jwtVerify(assertion, key, {
        algorithms: ['HS512'],
        audience: `https://${host}${endpoint}`,
        issuer: CLIENT_ID,
        subject: CLIENT_ID,
      });
      if (protectedHeader.alg !== 'HS512' || typeof payload.jti !== 'string' || typeof payload.exp !== 'number') problems.push(`${endpoint}: assertion claims`);
    } catch (error) {
      problems.push(`${endpoint}: ${(error as Error).message}`);
    }
    return undefined;
  };
  const server = https.createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', `https://${host}`);
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method === 'POST' && url.pathname === '/oauth/v1/health_check') {
        if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) problems.push('health_check: content type');
        if (form.get('client_id') !== CLIENT_ID) problems.push('health_check: client_id');
        await checkAssertion(form.get('client_assertion'), '/oauth/v1/health_check');
        return healthy
          ? json(200, { stat: 'OK', response: { timestamp: Math.floor(Date.now() / 1000) } })
          : json(500, { stat: 'FAIL', code: 50000, timestamp: 0, message: 'Service unavailable', message_detail: 'maintenance' });
      }
      if (req.method === 'GET' && url.pathname === '/oauth/v1/authorize') {
        // The browser at Duo: the request JWT says who and where to return; the test says allow or deny.
        try {
          const { payload } = await jwtVerify(url.searchParams.get('request') ?? '', key, {
            algorithms: ['HS512'],
            audience: `https://${host}`,
            issuer: CLIENT_ID,
          });
          if (url.searchParams.get('client_id') !== CLIENT_ID || url.searchParams.get('response_type') !== 'code' || url.searchParams.get('scope') !== 'openid')
            problems.push('authorize: query');
          if (payload.redirect_uri !== REDIRECT || url.searchParams.get('redirect_uri') !== REDIRECT) problems.push('authorize: redirect_uri');
          const code = `code-${codes.size + 1}`;
          codes.set(code, { username: String(payload.duo_uname), decision: url.searchParams.get('test_decision') === 'deny' ? 'deny' : 'allow' });
          res.writeHead(302, { Location: `${REDIRECT}?duo_code=${code}&state=${encodeURIComponent(String(payload.state))}` });
          return res.end();
        } catch (error) {
          problems.push(`authorize: ${(error as Error).message}`);
          return json(400, { error: 'invalid_request' });
        }
      }
      if (req.method === 'POST' && url.pathname === '/oauth/v1/token') {
        if (form.get('grant_type') !== 'authorization_code') problems.push('token: grant_type');
        if (form.get('redirect_uri') !== REDIRECT) problems.push('token: redirect_uri');
        if (form.get('client_assertion_type') !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer') problems.push('token: client_assertion_type');
        await checkAssertion(form.get('client_assertion'), '/oauth/v1/token');
        const issued = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        if (!issued)
          return json(400, { error: 'invalid_grant', error_description: 'The provided authorization grant or refresh token is invalid, expired, revoked' });
        const now = Math.floor(Date.now() / 1000);
        const idToken = await new SignJWT({
          preferred_username: issued.username,
          auth_time: now,
          auth_result: { result: issued.decision, status: issued.decision, status_msg: issued.decision === 'allow' ? 'Login Successful' : 'Login denied' },
          auth_context: { result: issued.decision, factor: 'duo_push', auth_device: { name: 'iPhone', ip: null, location: {} } },
        })
          .setProtectedHeader({ alg: 'HS512' })
          .setIssuer(`https://${host}/oauth/v1/token`)
          .setAudience(CLIENT_ID)
          .setSubject(issued.username)
          .setIssuedAt(now)
          .setExpirationTime(now + 300)
          .sign(key);
        return json(200, { id_token: idToken, access_token: 'at', expires_in: 3600, token_type: 'Bearer' });
      }
      json(404, {});
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    host,
    problems,
    agent: new https.Agent({ ca: pems.cert }),
    setHealthy: (v: boolean) => (healthy = v),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let db: Database;
let duoDouble: Awaited<ReturnType<typeof startDuoDouble>>;
let duo: DuoUniversal;
beforeAll(async () => {
  db = openSqlite(':memory:');
  await db.migrate();
  duoDouble = await startDuoDouble();
  duo = createDuoUniversal({ clientId: CLIENT_ID, clientSecret: SECRET, apiHost: duoDouble.host }, { redirectUrl: REDIRECT, httpsAgent: duoDouble.agent });
}, 30_000);
afterAll(async () => {
  await duoDouble?.close();
  await db?.close();
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
