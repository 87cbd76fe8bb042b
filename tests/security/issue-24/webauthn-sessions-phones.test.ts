/**
 * The attack of issue 24, findings 6 to 8 (a WebAuthn race, sessions, an unverified phone), replayed
 * against the real server (docs/security.md): each finding must fail now, beside a control proving the
 * owner's path still works. Clients are separate browsers (attack-helpers.ts client()); the figures
 * are checked against the document's table.
 */
import { describe, expect, it } from 'vitest';
import { BROWSER_IDLE_MS, BROWSER_SESSION_MS, PERSISTENT_IDLE_MS, PERSISTENT_SESSION_MS } from '../../../server/services/sessions';
import { softPasskey } from '../../server/soft-passkey';
import { makeApp, makeProductionApp, PASSWORD, row, TEST_APP_SECRET } from '../../server/helpers';
import { logLines } from '../../../scripts/server-output';
import { body, client, count, figure, healthy, listeningAt, outbox, startServer, type Client, reportFigures } from '../attack-helpers';

describe('6. race on a WebAuthn assertion', () => {
  it('one assertion sent six times at once on one login token: one session', async () => {
    const app = await makeApp({ rateLimit: false });
    try {
      // A security key as the finding used: user presence only, not backed up, its counter at 0.
      const key = softPasskey({ userVerification: false, backedUp: false });
      const user = (await row<{ id: number }>(app, "SELECT id FROM users WHERE email = 'setup@demo.test'")).id;
      await app.fd.data.run(
        "INSERT INTO mfa_enrolments (user_id, type, position, credential_id, public_key, sign_count, device_name, created_at) VALUES (?, 'U2F_TOKEN', 0, ?, ?, 0, 'Key', ?)",
        [user, key.credentialId, key.publicKeyCose, Date.now()],
      );
      const visitor = client(app);
      const start = async () => {
        const mfa = body(await visitor.post('/ws/account/login', { email: 'setup@demo.test', password: PASSWORD }));
        expect(mfa).toMatchObject({ resultCode: 'MFA_REQUIRED', mfaType: 'U2F_TOKEN' });
        const challenge = (JSON.parse(String(mfa.credsRequest)) as { publicKey: { challenge: string } }).publicKey.challenge;
        return { loginToken: String(mfa.loginToken), assertion: key.assert({ challenge, rpId: 'localhost' }, { origin: 'http://localhost:8080', counter: 0 }) };
      };
      const { loginToken, assertion } = await start();
      const answers = await Promise.all(
        Array.from({ length: 6 }, () =>
          visitor.post('/ws/account/u2f-login', { loginToken, publicKeyCredentialJson: assertion }).then((r) => body(r).resultCode),
        ),
      );
      const sessions = answers.filter((a) => a === 'SUCCESS').length;
      expect(sessions).toBe(1);
      expect(await count(app, 'SELECT count(*) AS n FROM sessions WHERE user_id = ?', user)).toBe(1);
      figure(6, 'sessions from one WebAuthn assertion sent 6 times at once', '5', sessions);
      // Control: a fresh sign-in with the key works once more.
      const again = await start();
      expect(body(await visitor.post('/ws/account/u2f-login', { loginToken: again.loginToken, publicKeyCredentialJson: again.assertion }))).toMatchObject({
        resultCode: 'SUCCESS',
      });
    } finally {
      await app.close();
    }
  });
});

describe('7. sessions', () => {
  it('idle time-outs and absolute lifetimes, checked on every use', async () => {
    let clock = Date.now();
    const app = await makeApp({ rateLimit: false, now: () => clock });
    try {
      const signedIn = async (staySignedIn: boolean) => {
        const c = client(app);
        expect(body(await c.post('/ws/account/login', { email: 'nomfa@demo.test', password: PASSWORD, staySignedIn }))).toMatchObject({
          resultCode: 'SUCCESS',
        });
        return c;
      };
      const alive = async (c: Client) => (await c.get('/ws/account/session')).statusCode === 200;
      const idle = await signedIn(false);
      const busy = await signedIn(false);
      for (let minutes = 20; minutes <= 11 * 60; minutes += 20) {
        clock += 20 * 60 * 1000;
        expect(await alive(busy), `in use, after ${minutes} min`).toBe(true); // control: a session in use lives on
      }
      expect(await alive(idle)).toBe(false);
      figure(
        7,
        'browser session valid after 11 h idle',
        'yes',
        `no (${BROWSER_IDLE_MS / 60_000} min idle time-out, ${BROWSER_SESSION_MS / 3_600_000} h at most)`,
      );
      clock += 20 * 60 * 1000;
      expect(await alive(busy)).toBe(true); // 11 h 20 min
      clock += 40 * 60 * 1000;
      expect(await alive(busy)).toBe(false); // 12 h after sign-in, even in use

      const kept = await signedIn(true);
      const away = await signedIn(true);
      clock += 6 * 24 * 60 * 60 * 1000;
      expect(await alive(kept)).toBe(true); // control: 6 days away is fine
      clock += 6 * 24 * 60 * 60 * 1000;
      expect(await alive(kept)).toBe(true);
      expect(await alive(away)).toBe(false); // 12 days without a visit
      clock += 6 * 24 * 60 * 60 * 1000;
      expect(await alive(kept)).toBe(true);
      clock += 6 * 24 * 60 * 60 * 1000;
      expect(await alive(kept)).toBe(true);
      clock += 6 * 24 * 60 * 60 * 1000;
      expect(await alive(kept)).toBe(false); // 30 days after sign-in
      figure(
        7,
        "'keep me signed in' session valid after 29 days idle",
        'yes',
        `no (${PERSISTENT_IDLE_MS / 86_400_000} days idle time-out, ${PERSISTENT_SESSION_MS / 86_400_000} days at most)`,
      );
    } finally {
      await app.close();
    }
  });

  it('PUBLIC_URL=https without TRUST_PROXY: Secure cookies, HSTS, and a start-up line', async () => {
    const app = await makeProductionApp({ rateLimit: false, seed: true });
    const plain = await makeApp({ rateLimit: false });
    try {
      const res = await app.inject({
        method: 'POST',
        url: '/ws/account/login',
        headers: { host: 'signin.example.test' },
        payload: { email: 'nomfa@demo.test', password: PASSWORD },
      });
      const cookie = String(res.headers['set-cookie']);
      expect(cookie).toMatch(/^__Host-fd_session=.*; Secure/);
      expect(res.headers['strict-transport-security']).toBe('max-age=63072000; includeSubDomains');
      // Control: the demo on http://localhost keeps plain cookies.
      const local = await plain.inject({ method: 'POST', url: '/ws/account/login', payload: { email: 'nomfa@demo.test', password: PASSWORD } });
      expect(String(local.headers['set-cookie'])).not.toMatch(/Secure/);
      expect(local.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await app.close();
      await plain.close();
    }
    const proc = startServer({
      NODE_ENV: 'production',
      PORT: '0',
      DB_PATH: ':memory:',
      APP_SECRET: TEST_APP_SECRET,
      PUBLIC_URL: 'https://signin.example.test',
      DELIVERY: 'hold',
    });
    try {
      const base = await listeningAt(proc);
      expect(base, proc.output()).toBeDefined();
      expect(await healthy(base!, proc)).toBe(true);
      expect(logLines(proc.output()).map((l) => l.msg)).toContainEqual(expect.stringMatching(/^PUBLIC_URL is https and TRUST_PROXY is unset/));
    } finally {
      await proc.stop();
    }
    figure(7, 'https PUBLIC_URL without TRUST_PROXY: Secure cookie / HSTS / start-up line', 'no / no / silent', 'yes / yes / one line');
  }, 60_000);
});

describe('8. an unverified phone', () => {
  it('change-phone stores nothing until a code sent to the number comes back; the owner is told', async () => {
    const app = await makeApp({ rateLimit: false });
    try {
      // Someone with setup@'s userToken changes the phone and never confirms it.
      const attacker = client(app, '203.0.113.66');
      const token = String(body(await attacker.post('/ws/account/login', { email: 'setup@demo.test', password: PASSWORD })).userToken);
      expect(
        body(await attacker.send({ method: 'PATCH', url: '/ws/account/change-phone', payload: { userToken: token, phoneNumber: '+14155550177' } })),
      ).toEqual({
        resultCode: 'SUCCESS',
        phoneNumber: '+14155550177',
      });
      const phone = async () => (await row<{ phone: string }>(app, "SELECT phone FROM users WHERE email = 'setup@demo.test'")).phone;
      expect(await phone()).toBe('+14155550188');
      // Text resets still go to the owner's number.
      const owner = client(app, '192.0.2.10');
      expect(body(await owner.post('/ws/account/reset-password-init', { email: 'setup@demo.test', verifyBy: 'TEXT', phoneDigits: '0177' }))).toEqual({
        resultCode: 'PHONE_DIGITS_MISMATCH',
      });
      expect(body(await owner.post('/ws/account/reset-password-init', { email: 'setup@demo.test', verifyBy: 'TEXT', phoneDigits: '0188' }))).toEqual({
        resultCode: 'SUCCESS',
      });
      expect(await outbox(app, '+14155550177')).toHaveLength(0);
      figure(8, 'numbers stored by change-phone without a code sent to them', 'every one', 0);
      // Control: the owner's own change, confirmed by the code, is stored, and the owner is told by email.
      const setup = client(app, '192.0.2.11');
      const own = String(body(await setup.post('/ws/account/login', { email: 'setup@demo.test', password: PASSWORD })).userToken);
      await setup.send({ method: 'PATCH', url: '/ws/account/change-phone', payload: { userToken: own, phoneNumber: '+14155550166' } });
      await setup.post('/ws/account/config-smsotp', { userToken: own });
      const code = (await outbox(app, '+14155550166'))[0]!.code!;
      expect(body(await setup.post('/ws/account/login/smsotp', { userToken: own, code }))).toMatchObject({ resultCode: 'SUCCESS' });
      expect(await phone()).toBe('+14155550166');
      const told = (await outbox(app, 'setup@demo.test')).map((m) => m.subject);
      expect(told).toContain('The phone number of your Front Door account was changed');
      figure(8, 'owner told of a new phone number', 'no', 'by email, once the code came back');
    } finally {
      await app.close();
    }
  });
});

reportFigures('2-issue-24-c', 'The attack of issue 24, findings 6 to 8');
