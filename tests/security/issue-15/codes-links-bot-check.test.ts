/**
 * The attack of issue 15, findings 1 to 3 (text-reset codes, links from request headers, the bot
 * check), replayed against the real server (docs/security.md): each finding must fail now; the figures
 * measured on the way are checked against the document's table.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../server/config';
import { BOT_CHECK_TTL_MS } from '../../../server/services/botCheck';
import { LIMITS } from '../../../server/services/limits';
import { botToken, login, makeApp, makeProductionApp, PASSWORD, post } from '../../server/helpers';
import { anyAddress, count, fakeRecaptcha, figure, outbox, reportFigures } from '../attack-helpers';

describe('1. account takeover by guessing the text-reset code', () => {
  it('one live code per account, 5 tries per code, the account budget across codes: 3,000 guesses take nothing', async () => {
    const app = await makeApp({ rateLimit: false });
    try {
      // 280 requests used to leave 280 live codes; texts are limited and each new code voids the old.
      const answers: string[] = [];
      for (let i = 0; i < 280; i += 1) {
        const res = await post(app, '/ws/account/reset-password-init', { email: 'setup@demo.test', verifyBy: 'TEXT', phoneDigits: '0188' }, anyAddress());
        answers.push(res.statusCode === 429 ? '429' : (res.json() as { resultCode: string }).resultCode);
      }
      const texts = await outbox(app, '+14155550188');
      const live = await count(
        app,
        "SELECT count(*) AS n FROM verification_codes v JOIN users u ON u.id = v.user_id WHERE u.email = 'setup@demo.test' AND v.purpose = 'RESET_SMS' AND v.used_at IS NULL",
      );
      expect(texts.length).toBe(LIMITS.textsPerPhonePerHour);
      // The rest are refused: 429 (texts over budget), or, once the flood made it compulsory for every
      // address (issue 24: LIMITS.mailRequestsPerMinuteBeforeBotCheck), the bot check.
      expect(answers.filter((a) => a === 'SUCCESS').length).toBe(LIMITS.textsPerPhonePerHour);
      expect(answers.filter((a) => a === '429' || a === 'HUMAN_VERIFICATION_FAILED').length).toBe(280 - LIMITS.textsPerPhonePerHour);
      expect(live).toBe(1);
      figure(1, 'live text-reset codes for one account after 280 requests', '280', live);

      // 3,000 random guesses from many addresses (the attacker's 12.8 s takeover).
      const right = texts[0]!.code!;
      let compared = 0;
      let taken = 0;
      const resetCodeCount = async () =>
        (
          await app.fd.data.get<{ count: number }>(
            "SELECT count FROM counters WHERE scope = 'reset-code' AND key = (SELECT CAST(id AS TEXT) FROM users WHERE email = 'setup@demo.test')",
          )
        )?.count ?? 0;
      for (let i = 0; i < 3000; i += 1) {
        const guess = String((i * 7919) % 1_000_000).padStart(6, '0');
        if (guess === right) continue; // a lucky draw proves nothing about the limit
        const before = await resetCodeCount();
        const res = await post(app, '/ws/account/reset-password-verify', { email: 'setup@demo.test', verificationCode: guess }, anyAddress());
        const after = await resetCodeCount();
        if (after > before) compared += 1;
        if ((res.json() as { resultCode?: string }).resultCode === 'SUCCESS') taken += 1;
      }
      expect(taken).toBe(0);
      expect(compared).toBe(LIMITS.triesPerCode);
      // The code is dead: even the right one is refused now.
      expect((await post(app, '/ws/account/reset-password-verify', { email: 'setup@demo.test', verificationCode: right })).json()).toEqual({
        resultCode: 'UNKNOWN_VERIFICATION_CODE',
      });
      // Without the account the code is not even looked at.
      expect((await post(app, '/ws/account/reset-password-verify', { verificationCode: right })).statusCode).toBe(400);
      figure(1, 'guesses compared with the live code, of 3,000 sent', '3,000 (hit after ~3,000)', compared);
      figure(1, 'chance of guessing one text-reset code in its lifetime', '280 live codes: ~1 in 3,600 per guess', `${LIMITS.triesPerCode} in 1,000,000`);
      figure(1, 'wrong codes per account per hour, all codes together', 'unlimited', LIMITS.codeFailuresPerAccountPerHour);
    } finally {
      await app.close();
    }
  }, 180_000);

  it('MFA at sign-in, in setup and in the modal obey the same rules: concurrent guesses cannot overrun a token', async () => {
    const app = await makeApp({ rateLimit: false });
    try {
      const { body } = await login(app, 'tech@demo.test');
      const guesses = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          post(app, '/ws/account/mfa-login', { loginToken: body.loginToken, code: String(100000 + i) }).then(
            (r) => (r.json() as { resultCode: string }).resultCode,
          ),
        ),
      );
      const checked = guesses.filter((c) => c === 'INVALID_MFA_CODE').length;
      expect(checked).toBe(LIMITS.triesPerCode);
      expect(guesses.filter((c) => c === 'INVALID_LOGIN_TOKEN').length).toBe(30 - LIMITS.triesPerCode);
      figure(1, 'codes checked of 30 concurrent guesses on one login token', '30', checked);
    } finally {
      await app.close();
    }
  });
});

describe('2. links in emails from request headers', () => {
  it('Host and X-Forwarded-Host (even from a trusted proxy) never reach a link', async () => {
    const app = await makeApp({ publicUrl: 'https://signin.example.test', trustProxy: ['127.0.0.1'], rateLimit: false });
    try {
      // Since issue 24 an unknown host is not served at all (421), also when a trusted proxy forwards it.
      const evil = { host: 'evil.test', 'x-forwarded-host': 'evil.test', 'x-forwarded-proto': 'https' };
      const refused = [
        await post(app, '/ws/account/reset-password-init', { email: 'nomfa@demo.test', verifyBy: 'EMAIL' }, { headers: evil }),
        await post(app, '/ws/account/request-activation-email', { email: 'inactive@demo.test' }, { headers: { ...evil, host: 'signin.example.test' } }),
      ];
      expect(refused.map((r) => r.statusCode)).toEqual([421, 421]);
      // From a client that is not a trusted proxy, X-Forwarded-Host is ignored: the link is PUBLIC_URL's.
      const untrusted = { remoteAddress: '203.0.113.7', headers: { host: 'signin.example.test', 'x-forwarded-host': 'evil.test' } };
      await post(app, '/ws/account/reset-password-init', { email: 'nomfa@demo.test', verifyBy: 'EMAIL' }, untrusted);
      await post(app, '/ws/account/request-activation-email', { email: 'inactive@demo.test' }, untrusted);
      const links = [...(await outbox(app, 'nomfa@demo.test')), ...(await outbox(app, 'inactive@demo.test'))].map((m) => m.link ?? '');
      expect(links).toHaveLength(2);
      for (const link of links) expect(link).toMatch(/^https:\/\/signin\.example\.test\//);
      // A branded host gets its own configured base URL; the Host header only selects it.
      await post(app, '/ws/account/reset-password-init', { email: 'user@demo.test', verifyBy: 'EMAIL' }, { headers: { host: 'branded.localhost:8080' } });
      expect((await outbox(app, 'user@demo.test'))[0]?.link).toMatch(/^http:\/\/branded\.localhost:8080\/resetPassword\//);
      figure(2, "emailed links pointing at the Host header's evil.test", 'every one', links.filter((l) => l.includes('evil.test')).length);
    } finally {
      await app.close();
    }
  });

  it('outside demo mode PUBLIC_URL is required', async () => {
    await expect(makeProductionApp({ publicUrl: undefined })).rejects.toThrow(ConfigError);
  });
});

describe('3. the bot check is a real challenge', () => {
  it('ALTCHA: work, one action, once, 2 minutes; the old token endpoint is gone', async () => {
    let clock = Date.now();
    const app = await makeApp({ rateLimit: false, now: () => clock, botCheckWork: { min: 1, max: 50 } });
    try {
      expect((await post(app, '/ws/bot-check/token', { action: 'login' })).statusCode).toBe(404);
      const actions = ['login', 'samlInit', 'resetPasswordInit', 'register', 'mfaLogin'] as const;
      const checked = ['login', 'samlInit', 'resetPasswordInit'] as const;
      let crossAccepted = 0;
      let pairs = 0;
      for (const made of actions) {
        for (const used of checked) {
          if (made === used) continue;
          pairs += 1;
          if (await app.fd.botCheck.verify(await botToken(app, made), used)) crossAccepted += 1;
        }
      }
      expect(crossAccepted).toBe(0);
      figure(3, 'tokens accepted by another action', 'all (register → login)', `${crossAccepted} of ${pairs}`);

      const token = await botToken(app, 'login');
      const replays = [
        await app.fd.botCheck.verify(token, 'login'),
        await app.fd.botCheck.verify(token, 'login'),
        await app.fd.botCheck.verify(token, 'login'),
      ];
      expect(replays).toEqual([true, false, false]);

      // A script that does not do the work: challenges alone, with made-up answers.
      let lazyAccepted = 0;
      for (let i = 0; i < 20; i += 1) {
        const res = await post(app, '/ws/bot-check/challenge', { action: 'login' });
        const lazy = Buffer.from(JSON.stringify({ challenge: res.json(), solution: { counter: i, derivedKey: '00'.repeat(32) } })).toString('base64');
        if (await app.fd.botCheck.verify(lazy, 'login')) lazyAccepted += 1;
      }
      expect(lazyAccepted).toBe(0);
      figure(3, 'tokens accepted without the work, of 20', '20 (POST /ws/bot-check/token gave one to any script)', lazyAccepted);

      const late = await botToken(app, 'login');
      clock += BOT_CHECK_TTL_MS + 1;
      expect(await app.fd.botCheck.verify(late, 'login')).toBe(false);
    } finally {
      await app.close();
    }
    // The work a token costs at the real difficulty (node's SHA-256; docs/security.md has the browser's figure).
    const real = await makeApp({ rateLimit: false });
    try {
      const t0 = performance.now();
      for (let i = 0; i < 3; i += 1) await botToken(real, 'login');
      figure(3, 'work per token (node, SHA-256, average of 3)', 'none', `${Math.round((performance.now() - t0) / 3)} ms`);
    } finally {
      await real.close();
    }
  }, 30_000);

  it('reCAPTCHA Enterprise: verified server side (action, score, once); local tokens refused', async () => {
    const google = await fakeRecaptcha({
      'real-login': { action: 'login', score: 0.9 },
      'real-register': { action: 'register', score: 0.9 },
      'real-bot': { action: 'login', score: 0.1 },
    });
    const app = await makeApp({ rateLimit: false, recaptcha: { siteKey: 'site-key', projectId: 'demo-project', apiKey: 'api-key', apiBase: google.url } });
    try {
      const config = (await app.inject({ url: '/ws/app-config' })).json() as { botCheck: unknown };
      expect(config.botCheck).toEqual({ provider: 'recaptcha-enterprise', siteKey: 'site-key' });
      expect((await post(app, '/ws/bot-check/challenge', { action: 'login' })).statusCode).toBe(404);
      for (let i = 0; i < 3; i += 1) await login(app, 'nomfa@demo.test', 'wrong');
      const withToken = async (recaptchaToken: string) => (await login(app, 'nomfa@demo.test', PASSWORD, { recaptchaToken })).body.resultCode;
      const local = Buffer.from(JSON.stringify({ challenge: {}, solution: {} })).toString('base64');
      expect(await withToken(local)).toBe('HUMAN_VERIFICATION_FAILED');
      expect(await withToken('real-register')).toBe('HUMAN_VERIFICATION_FAILED');
      expect(await withToken('real-bot')).toBe('HUMAN_VERIFICATION_FAILED');
      expect(await withToken('real-login')).toBe('SUCCESS');
      for (let i = 0; i < 3; i += 1) await login(app, 'nomfa@demo.test', 'wrong');
      expect(await withToken('real-login')).toBe('HUMAN_VERIFICATION_FAILED'); // used once already
      expect(google.calls[0]).toMatchObject({
        url: '/v1/projects/demo-project/assessments?key=api-key',
        event: { siteKey: 'site-key', expectedAction: 'login' },
      });
      figure(3, 'with a reCAPTCHA key: real token / local token accepted', 'refused / accepted', 'accepted once / refused');
    } finally {
      await app.close();
      await google.close();
    }
  });

  it('captcha-fail@ keeps failing, whatever the token', async () => {
    const app = await makeApp({ rateLimit: false });
    try {
      expect((await login(app, 'captcha-fail@demo.test', PASSWORD, { recaptchaToken: await botToken(app, 'login') })).body).toEqual({
        resultCode: 'HUMAN_VERIFICATION_FAILED',
        recaptchaRequired: true,
      });
    } finally {
      await app.close();
    }
  });
});

reportFigures('1-issue-15-a', 'The attack of issue 15, findings 1 to 3');
