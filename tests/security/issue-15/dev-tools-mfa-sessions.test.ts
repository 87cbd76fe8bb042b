/**
 * The attack of issue 15, findings 8 to 10 (dev tools, the Verify MFA modal, sessions and notices),
 * replayed against the real server (docs/security.md): each finding must fail now; the figures
 * measured on the way are checked against the document's table.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../server/services/limits';
import { cookieValue, login, makeApp, makeProductionApp, PASSWORD, post, sessionCookie, TEST_APP_SECRET } from '../../server/helpers';
import { logLines } from '../../../scripts/server-output';
import { figure, outbox, startServer, totp, reportFigures } from '../attack-helpers';

describe('8. dev tools', () => {
  it('off unless asked for; production with dev tools refuses a public address; secrets required', async () => {
    const prod = await makeProductionApp();
    try {
      for (const [method, url] of [
        ['GET', '/dev/outbox'],
        ['POST', '/dev/reset'],
        ['GET', '/dev/idp?request=x'],
      ] as const) {
        expect((await prod.inject({ method, url })).statusCode, url).toBe(404);
      }
    } finally {
      await prod.close();
    }
    expect(JSON.parse(fs.readFileSync('package.json', 'utf8')).scripts.start).toMatch(/server\/main\.(ts|js) --demo$/);
    expect(fs.readFileSync('playwright.config.ts', 'utf8')).toMatch(/DEV_TOOLS: '1'/);

    const refused = startServer({
      NODE_ENV: 'production',
      DEV_TOOLS: '1',
      HOST: '0.0.0.0',
      PORT: '0',
      DB_PATH: ':memory:',
      APP_SECRET: TEST_APP_SECRET,
      PUBLIC_URL: 'https://signin.example.test',
    });
    expect(await refused.exited).toBe(2);
    expect(refused.output()).toMatch(/refusing to listen on the non-loopback address 0\.0\.0\.0/);
    const noSecret = startServer({ NODE_ENV: 'production', PORT: '0', DB_PATH: ':memory:', PUBLIC_URL: 'https://signin.example.test' });
    expect(await noSecret.exited).toBe(2);
    expect(logLines(noSecret.output()).map((l) => l.msg)).toContainEqual(expect.stringMatching(/^APP_SECRET is required outside demo mode/));
    expect(noSecret.output()).not.toMatch(/\n\s+at /); // no stack trace
    figure(8, 'dev tools on a production start', 'on unless NODE_ENV=production', 'off; --demo/DEV_TOOLS=1 only, never on a public address in production');
  }, 60_000);
});

describe('9. the Verify MFA modal', () => {
  it('200 wrong TOTP codes, then the right one: refused after 5', async () => {
    const clock = Date.UTC(2026, 0, 1, 12, 0, 15);
    const app = await makeApp({ rateLimit: false, now: () => clock });
    try {
      const { body } = await login(app, 'tech@demo.test');
      const signedIn = await post(app, '/ws/account/mfa-login', { loginToken: body.loginToken, code: await totp(clock) });
      const cookie = cookieValue(sessionCookie(signedIn)!);
      let refusedAsCode = 0;
      const right = await totp(clock + 30_000);
      for (let i = 0; i < 200; i += 1) {
        const code = String(100000 + i);
        if (code === right) continue;
        const r = (await post(app, '/ws/user/mfa/verify', { mfaType: 'TOTP', mfaCode: code }, { cookies: { fd_session: cookie } })).json() as {
          resultCode: string;
        };
        if (r.resultCode === 'INVALID_MFA_CODE') refusedAsCode += 1;
      }
      const last = (await post(app, '/ws/user/mfa/verify', { mfaType: 'TOTP', mfaCode: right }, { cookies: { fd_session: cookie } })).json();
      expect(last).toEqual({ resultCode: 'INVALID_LOGIN_TOKEN' });
      expect(refusedAsCode).toBe(LIMITS.triesPerCode);
      figure(9, 'codes checked per session in the Verify MFA modal', 'unlimited (200 wrong, then signed in)', refusedAsCode);
    } finally {
      await app.close();
    }
  });
});

describe('10. sessions and notices', () => {
  it("a password reset ends every session; a sign-in replaces the browser's session; the owner is told", async () => {
    const app = await makeApp({ rateLimit: false });
    try {
      const first = cookieValue(sessionCookie((await login(app, 'nomfa@demo.test')).res)!);
      const other = cookieValue(sessionCookie((await login(app, 'nomfa@demo.test')).res)!);
      // Same browser signs in again: its old cookie is void (rotation).
      const again = await post(app, '/ws/account/login', { email: 'nomfa@demo.test', password: PASSWORD }, { cookies: { fd_session: first } });
      const rotated = cookieValue(sessionCookie(again)!);
      const session = (c: string) => app.inject({ url: '/ws/account/session', cookies: { fd_session: c } }).then((r) => r.statusCode);
      expect([await session(first), await session(other), await session(rotated)]).toEqual([401, 200, 200]);

      await post(app, '/ws/account/reset-password-init', { email: 'nomfa@demo.test', verifyBy: 'EMAIL' });
      const link = (await outbox(app, 'nomfa@demo.test'))[0]!.link!;
      const commit = await post(app, '/ws/account/reset-password-commit', {
        verificationCode: decodeURIComponent(link.split('/').pop()!),
        password: 'N3w-Passw0rd!',
      });
      const fresh = cookieValue(sessionCookie(commit)!);
      const alive = [await session(other), await session(rotated), await session(fresh)];
      expect(alive).toEqual([401, 401, 200]);
      expect((await outbox(app, 'nomfa@demo.test'))[0]).toMatchObject({ subject: 'Your Front Door password was changed' });
      figure(10, 'older sessions still valid after a password reset', 'all', alive.slice(0, 2).filter((s) => s === 200).length);

      const setup = await login(app, 'setup@demo.test');
      await post(app, '/ws/account/config-smsotp', { userToken: setup.body.userToken });
      const code = (await outbox(app, '+14155550188'))[0]!.code!;
      expect((await post(app, '/ws/account/login/smsotp', { userToken: setup.body.userToken, code })).json()).toMatchObject({ resultCode: 'SUCCESS' });
      expect((await outbox(app, 'setup@demo.test'))[0]).toMatchObject({ subject: 'A sign-in method was added to your Front Door account' });
      figure(10, 'emails on password change / new MFA method', 'none', 'one each');
    } finally {
      await app.close();
    }
  });
});

reportFigures('1-issue-15-c', 'The attack of issue 15, findings 8 to 10');
