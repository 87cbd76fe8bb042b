/**
 * Duo Universal Prompt wired into the flows (DUO_* set: buildApp's `duo`), against the local double of
 * Duo's API: the sign-in of a Duo user answers Duo's authorize URL with its realtime channel; Duo's
 * redirect to /duo/callback (in the browser that started it) publishes a one-time code on the channel
 * and that code finishes mfa-login (the control). Another browser's callback, a replayed one and a
 * denied check are refused with a page, and Duo being down gives a page, never a 500. Enrolment
 * (config-duo) goes to Duo too, and its callback enrols DUO and signs in.
 */
import https from 'node:https';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SSO_COOKIE } from '../../../server/sso/browser';
import { cookieValue, login, makeApp, post, send, sessionCookie } from '../helpers';
import { CLIENT_ID, SECRET, startDuoDouble } from './duo-double';

const REDIRECT = 'http://localhost:8080/duo/callback';

let app: FastifyInstance;
let double: Awaited<ReturnType<typeof startDuoDouble>>;
beforeAll(async () => {
  double = await startDuoDouble(REDIRECT);
  app = await makeApp({ duo: { clientId: CLIENT_ID, clientSecret: SECRET, apiHost: double.host }, duoHttpsAgent: double.agent });
}, 30_000);
afterAll(async () => {
  await app?.close();
  await double?.close();
});

/** The __Host-fd_sso cookie a response set (the browser's nonce of the Duo round trip). */
function ssoCookie(res: { headers: Record<string, unknown> }): Record<string, string> {
  const raw = res.headers['set-cookie'];
  const found = (Array.isArray(raw) ? raw : [raw]).find((c): c is string => typeof c === 'string' && c.startsWith(`${SSO_COOKIE}=`));
  return found ? { [SSO_COOKIE]: cookieValue(found) } : {};
}

/** The browser at Duo: follows the authorize URL; the double redirects to our callback. */
async function atDuo(url: string, decision: 'allow' | 'deny' = 'allow'): Promise<string> {
  const at = new URL(url);
  expect(at.host).toBe(double.host);
  at.searchParams.set('test_decision', decision);
  const location = await new Promise<string>((resolve, reject) =>
    https.get(at, { agent: double.agent }, (r) => (r.resume(), resolve(r.headers.location ?? ''))).on('error', reject),
  );
  expect(location.startsWith(`${REDIRECT}?duo_code=`)).toBe(true);
  return location.slice('http://localhost:8080'.length);
}

const message = async (channel: string) =>
  (await app.fd.data.get<{ duo_message: string | null }>("SELECT duo_message FROM mfa_challenges WHERE type = 'DUO' AND channel_id = ?", [channel]))
    ?.duo_message ?? null;

describe('Duo Universal Prompt in the sign-in', () => {
  it('answers Duo’s URL; the callback publishes a code on the channel that signs in once (the control)', async () => {
    const { res, body } = await login(app, 'duo@demo.test');
    expect(body).toMatchObject({ resultCode: 'MFA_REQUIRED', mfaType: 'DUO' });
    const channel = body.duoChannelId as string;
    const callback = await atDuo(body.duoUrl as string);
    const page = await send(app, { method: 'GET', url: callback, cookies: ssoCookie(res) });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.body).toContain('Approved');
    const { mfaCode } = JSON.parse((await message(channel)) ?? '{}') as { mfaCode?: string };
    expect(mfaCode).toMatch(/^\d{6}$/);
    const signedIn = await post(app, '/ws/account/mfa-login', { loginToken: body.loginToken, code: mfaCode });
    expect(signedIn.json()).toMatchObject({ resultCode: 'SUCCESS' });
    expect(sessionCookie(signedIn)).toBeTruthy();
    // The same callback again: the state was single use.
    const again = await send(app, { method: 'GET', url: callback, cookies: ssoCookie(res) });
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain('already completed');
  });

  it('refuses the callback in another browser, and a denied check, with a page', async () => {
    const { body } = await login(app, 'duo@demo.test');
    const callback = await atDuo(body.duoUrl as string);
    const stranger = await app.inject({ method: 'GET', url: callback, cookies: { [SSO_COOKIE]: 'x'.repeat(32) } });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.body).toContain('another browser');
    expect(await message(body.duoChannelId as string)).toBeNull();

    const second = await login(app, 'duo@demo.test');
    const denied = await send(app, { method: 'GET', url: await atDuo(second.body.duoUrl as string, 'deny'), cookies: ssoCookie(second.res) });
    expect(denied.statusCode).toBe(400);
    expect(denied.body).toContain('did not approve');
    expect(await message(second.body.duoChannelId as string)).toBeNull();
  });

  it('says Duo is unavailable when its health check fails, never a 500', async () => {
    double.setHealthy(false);
    try {
      const { body } = await login(app, 'duo@demo.test');
      expect(body).toMatchObject({ resultCode: 'MFA_REQUIRED', duoUrl: '/duo/callback?unavailable=1' });
      const page = await app.inject({ method: 'GET', url: body.duoUrl as string });
      expect(page.statusCode).toBe(503);
      expect(page.body).toContain('Duo cannot be reached');
    } finally {
      double.setHealthy(true);
    }
  });

  it('enrols Duo through the prompt (config-duo), then signs in', async () => {
    const { res, body } = await login(app, 'setup@demo.test');
    expect(body).toMatchObject({ resultCode: 'SETUP_MFA' });
    const configured = await post(app, '/ws/account/config-duo', { userToken: body.userToken });
    const { duoMfaUrl } = configured.json() as { duoMfaUrl: string };
    const cookies = { ...ssoCookie(res), ...ssoCookie(configured) };
    const done = await send(app, { method: 'GET', url: await atDuo(duoMfaUrl), cookies });
    expect(done.statusCode, done.body).toBe(303);
    expect(done.headers.location).toMatch(/^\/mfa\/recovery-codes/);
    expect(sessionCookie(done)).toBeTruthy();
    const enrolled = await app.fd.data.get("SELECT type FROM mfa_enrolments WHERE user_id = (SELECT id FROM users WHERE email = 'setup@demo.test')");
    expect(enrolled).toEqual({ type: 'DUO' });
  });
});
