/**
 * The attack of issue 24, findings 3 to 5 (DNS rebinding, lock-out with four digits, flooding),
 * replayed against the real server (docs/security.md): each finding must fail now, beside a control
 * proving the owner's path still works. Clients are separate browsers (attack-helpers.ts client());
 * the figures are checked against the document's table.
 */
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../server/services/limits';
import { purgeExpired } from '../../../server/services/housekeeping';
import { botToken, makeApp, makeProductionApp, PASSWORD } from '../../server/helpers';
import { body, client, count, figure, lastPart, outbox, someAddress, totp, reportFigures } from '../attack-helpers';

describe('3. DNS rebinding', () => {
  it('a host that is not ours is answered 421 in every mode; Origin is checked against the allow-list', async () => {
    const app = await makeApp({ rateLimit: false });
    const prod = await makeProductionApp();
    try {
      const rebind = { host: 'rebind.evil.test:8080', origin: 'http://rebind.evil.test:8080' };
      const attempts = [
        await app.inject({ url: '/dev/outbox', headers: rebind }),
        await app.inject({
          method: 'POST',
          url: '/ws/account/reset-password-commit',
          headers: rebind,
          payload: { verificationCode: 'x', password: 'Attack3r-Pass' },
        }),
        await app.inject({ method: 'POST', url: '/dev/studio/api/save', headers: rebind, payload: { screenId: 'login', screen: '{}' } }),
        await app.inject({ method: 'POST', url: '/dev/studio/api/publish', headers: rebind }),
      ];
      const served = attempts.filter((r) => r.statusCode !== 421).length;
      expect(served).toBe(0);
      expect(body(attempts[0]!)).toMatchObject({ error: 'MISDIRECTED_REQUEST' });
      figure(3, 'requests served for Host rebind.evil.test (outbox, reset commit, studio save, rebuild)', '4 of 4', `${served} of 4 (421)`);
      // An Origin that is not ours is refused even with our Host.
      const csrf = await app.inject({
        method: 'POST',
        url: '/ws/account/reset-password-init',
        headers: { host: 'localhost:8080', origin: 'http://rebind.evil.test:8080' },
        payload: { email: 'nomfa@demo.test', verifyBy: 'EMAIL' },
      });
      expect(csrf.statusCode).toBe(403);
      // Production too; /healthz answers any host (load balancers probe by address).
      expect((await prod.inject({ url: '/ws/app-config', headers: { host: 'rebind.evil.test' } })).statusCode).toBe(421);
      expect((await prod.inject({ url: '/healthz', headers: { host: '10.1.2.3:8080' } })).statusCode).toBe(200);
      figure(3, 'modes with a Host allow-list', 'none', 'every mode (demo and production)');
      // Controls: our names are served: localhost, 127.0.0.1, the public URL's host, a branded host, with their own Origin.
      expect((await app.inject({ url: '/dev/outbox', headers: { host: 'localhost:8080' } })).statusCode).toBe(200);
      expect((await app.inject({ url: '/dev/outbox', headers: { host: '127.0.0.1:8080' } })).statusCode).toBe(200);
      expect((await app.inject({ url: '/branding/generalData', headers: { host: 'branded.localhost:8080' } })).json()).toMatchObject({ theme: 'theme-four' });
      expect((await prod.inject({ url: '/ws/app-config', headers: { host: 'signin.example.test' } })).statusCode).toBe(200);
      const ours = await app.inject({
        method: 'POST',
        url: '/ws/account/reset-password-init',
        headers: { host: 'localhost:8080', origin: 'http://localhost:8080' },
        payload: { email: 'nomfa@demo.test', verifyBy: 'EMAIL' },
      });
      expect(body(ours)).toEqual({ resultCode: 'SUCCESS' });
    } finally {
      await app.close();
      await prod.close();
    }
  });
});

describe('4. lock-out with an email and four digits', () => {
  it("wrong text-reset codes have their own budget: the owner's sign-in is untouched; a reset by email clears it", async () => {
    const clock = Date.UTC(2026, 0, 1, 12, 0, 15);
    const app = await makeApp({ rateLimit: false, now: () => clock });
    try {
      const attacker = client(app, '203.0.113.66');
      let wrong = 0;
      for (let round = 0; round < 4; round += 1) {
        expect(body(await attacker.post('/ws/account/reset-password-init', { email: 'multi@demo.test', verifyBy: 'TEXT', phoneDigits: '0123' }))).toEqual({
          resultCode: 'SUCCESS',
        });
        for (let i = 0; i < 5; i += 1) {
          const guess = String(100000 + round * 10 + i);
          if (body(await attacker.post('/ws/account/reset-password-verify', { email: 'multi@demo.test', verificationCode: guess })).resultCode !== 'SUCCESS')
            wrong += 1;
        }
      }
      expect(wrong).toBe(20);
      expect(await count(app, "SELECT count(*) AS n FROM counters WHERE scope = 'code'")).toBe(0);
      // The owner, right password and right code.
      const owner = client(app, '192.0.2.10');
      const mfa = body(await owner.post('/ws/account/login', { email: 'multi@demo.test', password: PASSWORD }));
      const signIn = body(await owner.post('/ws/account/mfa-login', { loginToken: mfa.loginToken, code: await totp(clock) }));
      expect(signIn).toMatchObject({ resultCode: 'SUCCESS' });
      figure(
        4,
        'owner signing in (right password, right code) after 20 wrong text-reset codes',
        'INVALID_LOGIN_TOKEN, even after a reset by email',
        String(signIn.resultCode),
      );
      figure(4, 'wrong text-reset codes counted against the sign-in codes', '20 of 20', 0);
      // The text-reset budget itself is spent for the hour (that is what a limit is) ...
      await owner.post('/ws/account/reset-password-init', { email: 'multi@demo.test', verifyBy: 'TEXT', phoneDigits: '0123' });
      const code = (await outbox(app, '+14155550123'))[0]!.code!;
      expect(body(await owner.post('/ws/account/reset-password-verify', { email: 'multi@demo.test', verificationCode: code }))).toEqual({
        resultCode: 'UNKNOWN_VERIFICATION_CODE',
      });
      // ... and a reset by email clears it.
      await owner.post('/ws/account/reset-password-init', { email: 'multi@demo.test', verifyBy: 'EMAIL' });
      const link = (await outbox(app, 'multi@demo.test'))[0]!.link;
      expect(body(await owner.post('/ws/account/reset-password-commit', { verificationCode: lastPart(link), password: 'N3w-Owner-Pass' }))).toMatchObject({
        resultCode: 'MFA_REQUIRED',
      });
      expect(await count(app, "SELECT count(*) AS n FROM counters WHERE scope IN ('code', 'reset-code') AND count > 0")).toBe(0);
      figure(4, 'wrong text-reset codes left counted after a reset by email', '20', 0);
    } finally {
      await app.close();
    }
  });
});

describe('5. flooding and recovery sabotage', () => {
  it("40 reset requests: the budget's emails, all with the owner's one live link, which still works", async () => {
    const app = await makeApp({ rateLimit: false, botCheckWork: { min: 1, max: 20 } });
    try {
      const attacker = client(app, '203.0.113.66');
      const answers: string[] = [];
      for (let i = 0; i < 40; i += 1) {
        const res = await attacker.post('/ws/account/reset-password-init', { email: 'nomfa@demo.test', verifyBy: 'EMAIL' });
        answers.push(res.statusCode === 429 ? '429' : String(body(res).resultCode));
      }
      // From the 6th request of this address the bot check is demanded; then the mail budget answers.
      expect(answers.slice(0, LIMITS.mailRequestsPerAddressBeforeBotCheck).every((a) => a === 'SUCCESS')).toBe(true);
      expect(answers.slice(LIMITS.mailRequestsPerAddressBeforeBotCheck).every((a) => a === 'HUMAN_VERIFICATION_FAILED')).toBe(true);
      const first = await outbox(app, 'nomfa@demo.test');
      expect(new Set(first.map((m) => m.link)).size).toBe(1);
      figure(
        5,
        'emails from 40 reset-password-init in a row (one address, no bot check)',
        "40, each voiding the owner's live link",
        `${first.length}, all with the same live link`,
      );
      // A determined attacker solves the check, from many addresses: the mail budget holds.
      for (let i = 0; i < 40; i += 1) {
        const from = client(app, someAddress());
        await from.post('/ws/account/reset-password-init', {
          email: 'nomfa@demo.test',
          verifyBy: 'EMAIL',
          recaptchaToken: await botToken(app, 'resetPasswordInit'),
        });
      }
      const mails = await outbox(app, 'nomfa@demo.test');
      const links = new Set(mails.map((m) => m.link));
      expect(mails).toHaveLength(LIMITS.mailsPerAccountPerHour);
      expect(links.size).toBe(1);
      figure(5, 'more emails from 40 more, each with a solved bot check from its own address', '40', mails.length - first.length);
      // Control: the owner's link works.
      const owner = client(app, '192.0.2.10');
      expect(
        body(await owner.post('/ws/account/reset-password-commit', { verificationCode: lastPart([...links][0]), password: 'N3w-Owner-Pass' })),
      ).toMatchObject({
        resultCode: 'SUCCESS',
      });
      figure(5, "the owner's link after the flood", 'void', 'works');
    } finally {
      await app.close();
    }
  });

  it('40 request-activation-email: the budget of emails, one live key', async () => {
    const app = await makeApp({ rateLimit: false, botCheckWork: { min: 1, max: 20 } });
    try {
      for (let i = 0; i < 40; i += 1) {
        const from = client(app, someAddress());
        await from.post('/ws/account/request-activation-email', { email: 'inactive@demo.test', recaptchaToken: await botToken(app, 'requestActivationEmail') });
      }
      const mails = await outbox(app, 'inactive@demo.test');
      const keys = await count(
        app,
        "SELECT count(*) AS n FROM division_activations d JOIN users u ON u.id = d.user_id WHERE u.email = 'inactive@demo.test' AND d.activated_at IS NULL",
      );
      expect(mails).toHaveLength(LIMITS.mailsPerAccountPerHour);
      expect(keys).toBe(1);
      figure(5, 'emails / live activation keys from 40 request-activation-email', '40 / 40', `${mails.length} / ${keys}`);
      // Control: the key activates (with the person's password).
      const owner = client(app, '192.0.2.10');
      expect(body(await owner.post('/ws/account/activate-account', { activationKey: lastPart(mails[0]!.link), password: PASSWORD }))).toMatchObject({
        resultCode: 'SUCCESS',
      });
    } finally {
      await app.close();
    }
  });

  it('40 registrations without a bot check: the address is stopped, then a flood from many addresses', async () => {
    let clock = Date.now();
    const app = await makeApp({ rateLimit: false, now: () => clock });
    try {
      const form = (email: string) => ({
        companyName: 'Flood Co',
        firstName: 'F',
        lastName: 'L',
        email,
        password: 'Str0ng-Pass',
        passwordConfirm: 'Str0ng-Pass',
      });
      const one = client(app, '203.0.113.66');
      let made = 0;
      for (let i = 0; i < 40; i += 1)
        if (body(await one.post('/ws/account/register', form(`third-party-${i}@example.test`))).resultCode === 'SUCCESS') made += 1;
      expect(made).toBe(LIMITS.mailRequestsPerAddressBeforeBotCheck);
      figure(5, 'accounts (and emails to third parties) from 40 register without a bot check, one address', '40', made);
      clock += 2 * 60 * 1000;
      let many = 0;
      for (let i = 0; i < 40; i += 1)
        if (body(await client(app, someAddress()).post('/ws/account/register', form(`spread-${i}@example.test`))).resultCode === 'SUCCESS') many += 1;
      expect(many).toBe(LIMITS.mailRequestsPerMinuteBeforeBotCheck);
      figure(5, 'accounts from 40 register without a bot check, 40 addresses in a minute', '40', many);
      // Control: a person (the browser solves the check it is asked for) registers.
      const person = client(app, '203.0.113.66');
      expect(body(await person.post('/ws/account/register', { ...form('person@example.test'), recaptchaToken: await botToken(app, 'register') }))).toEqual({
        resultCode: 'SUCCESS',
        recaptchaRequired: false,
      });
    } finally {
      await app.close();
    }
  });

  it('one inbox, 100 requests with solved bot checks: 5 emails; the outbox is purged', async () => {
    let clock = Date.now();
    const app = await makeApp({ rateLimit: false, botCheckWork: { min: 1, max: 20 }, now: () => clock });
    try {
      for (let i = 0; i < 100; i += 1) {
        await client(app, someAddress()).post('/ws/account/reset-password-init', {
          email: 'user@demo.test',
          verifyBy: 'EMAIL',
          recaptchaToken: await botToken(app, 'resetPasswordInit'),
        });
      }
      const mails = (await outbox(app, 'user@demo.test')).length;
      expect(mails).toBe(LIMITS.mailsPerAddressPerHour);
      figure(5, 'emails to one inbox from 100 requests with solved bot checks', '506 in 63 s', mails);
      clock += 25 * 60 * 60 * 1000;
      await purgeExpired(app.fd.data, clock);
      const left = await count(app, 'SELECT count(*) AS n FROM outbox');
      expect(left).toBe(0);
      figure(5, 'outbox messages kept after a day', 'all, forever', `${left} (purged at start and hourly)`);
    } finally {
      await app.close();
    }
  }, 60_000);
});

reportFigures('2-issue-24-b', 'The attack of issue 24, findings 3 to 5');
