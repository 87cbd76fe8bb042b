/**
 * The second attack (issue 24) replayed against the real server: every finding, asserting that it
 * fails now, each beside a control that proves the owner's path still works. Clients are separate
 * browsers (their own address and cookies: tests/security/attack-helpers.ts client()). The figures are
 * printed, written to build/security-figures.md and checked against docs/security.md.
 */
import fs from 'node:fs';
import { createGuardrails, generate } from 'otplib';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_TOTP_SECRET } from '../../server/db/seed';
import { LIMITS } from '../../server/services/limits';
import { purgeExpired } from '../../server/services/housekeeping';
import { BROWSER_IDLE_MS, BROWSER_SESSION_MS, PERSISTENT_IDLE_MS, PERSISTENT_SESSION_MS } from '../../server/services/sessions';
import { botToken, count, makeApp, makeProductionApp, PASSWORD, row, TEST_APP_SECRET } from '../server/helpers';
import { newStore } from '../server/test-database';
import { client, figure, figures, healthy, softKey, startServer, writeFigures, type Client } from './attack-helpers';

afterAll(() => writeFigures('2-issue-24', 'The attack of issue 24', figures));

type Json = Record<string, unknown>;
const body = (res: { json(): unknown }) => res.json() as Json;
const totp = (secret: string, atMs: number) => generate({ secret, epoch: Math.floor(atMs / 1000), guardrails: createGuardrails({ MIN_SECRET_BYTES: 10 }) });
const outbox = async (app: FastifyInstance, to: string) =>
  (await app.inject({ url: `/dev/outbox?to=${encodeURIComponent(to)}` })).json() as { subject?: string; link?: string; code?: string; text: string }[];
const lastPart = (link: string | undefined) => decodeURIComponent((link ?? '').split('/').pop() ?? '');
let nextHost = 1;
/** A new address for each client of an attacker who has many. */
const someAddress = () => `198.51.${Math.floor(nextHost / 250) % 250}.${(nextHost++ % 250) + 1}`;

describe('1. takeover with a leftover invitation code', () => {
  it('one live invitation code; setting the password voids every other; codes work only in the browser that got them', async () => {
    const app = await makeApp({ rateLimit: false });
    try {
      const attacker = client(app, '203.0.113.66');
      const codes: string[] = [];
      for (let i = 0; i < 5; i += 1)
        codes.push(String(body(await attacker.post('/ws/account/validate-invitation', { invitationCode: 'DEMO-INVITE-NATIVE' })).verificationCode));
      const live = await count(
        app,
        "SELECT count(*) AS n FROM verification_codes v JOIN users u ON u.id = v.user_id WHERE u.email = 'invited@demo.test' AND v.purpose = 'INVITATION' AND v.used_at IS NULL",
      );
      expect(live).toBe(1);
      figure(1, 'live invitation codes after 5 validate-invitation calls', '5', live);

      // The invitee, in her own browser: her code is not the attacker's, and his is not hers.
      const owner = client(app, '192.0.2.10');
      const mine = String(body(await owner.post('/ws/account/validate-invitation', { invitationCode: 'DEMO-INVITE-NATIVE' })).verificationCode);
      expect(body(await attacker.post('/ws/account/reset-password-commit', { verificationCode: mine, password: 'Attack3r-Pass' }))).toEqual({
        resultCode: 'UNKNOWN_VERIFICATION_CODE',
      });
      // Control: the invitee sets her password and is signed in.
      expect(body(await owner.post('/ws/account/reset-password-commit', { verificationCode: mine, password: 'Invit3d-Pass' }))).toMatchObject({
        resultCode: 'SUCCESS',
      });
      let accepted = 0;
      for (const code of codes) {
        const res = body(await attacker.post('/ws/account/reset-password-commit', { verificationCode: code, password: 'Attack3r-Pass' }));
        if (res.resultCode !== 'UNKNOWN_VERIFICATION_CODE') accepted += 1;
      }
      expect(accepted).toBe(0);
      expect(body(await owner.post('/ws/account/login', { email: 'invited@demo.test', password: 'Invit3d-Pass' }))).toMatchObject({ resultCode: 'SUCCESS' });
      expect(body(await attacker.post('/ws/account/validate-invitation', { invitationCode: 'DEMO-INVITE-NATIVE' }))).toEqual({
        resultCode: 'INVITATION_CODE_EXPIRED',
      });
      figure(
        1,
        "older invitation codes that set a password after the invitee's",
        "5 of 5 (the attacker's password replaced the owner's, with a session)",
        `${accepted} of ${codes.length}`,
      );
    } finally {
      await app.close();
    }
  });
});

describe('2. takeover with a pending set-up token', () => {
  it("a password change or 'sign out everywhere' ends every token; a token from a URL is worth nothing in another client", async () => {
    const app = await makeApp({ rateLimit: false });
    try {
      // The attacker knew setup@'s password once and kept the userToken of /mfa/setup?state=...
      const attacker = client(app, '203.0.113.66');
      const stolen = String(body(await attacker.post('/ws/account/login', { email: 'setup@demo.test', password: PASSWORD })).userToken);
      // The owner resets the password by email.
      const owner = client(app, '192.0.2.10');
      await owner.post('/ws/account/reset-password-init', { email: 'setup@demo.test', verifyBy: 'EMAIL' });
      const link = (await outbox(app, 'setup@demo.test'))[0]?.link;
      expect(body(await owner.post('/ws/account/reset-password-commit', { verificationCode: lastPart(link), password: 'N3w-Owner-Pass' }))).toMatchObject({
        resultCode: 'SETUP_MFA',
      });
      const afterReset = body(await attacker.post('/ws/account/config-totp', { userToken: stolen }));
      expect(afterReset).toEqual({ resultCode: 'INVALID_USER_TOKEN' });
      figure(
        2,
        "set-up tokens still valid after the owner's password reset",
        "yes (enrolled the attacker's authenticator as a system administrator's primary factor)",
        0,
      );

      // Every kind of token handed to a browser, presented by another client (a copied URL): refused.
      const victim = client(app, '192.0.2.11');
      const thief = client(app, '203.0.113.67');
      const refused: string[] = [];
      const loginToken = String(body(await victim.post('/ws/account/login', { email: 'tech@demo.test', password: PASSWORD })).loginToken);
      refused.push(String(body(await thief.post('/ws/account/mfa-login', { loginToken, code: await totp(DEMO_TOTP_SECRET, Date.now()) })).resultCode));
      const userToken = String(body(await victim.post('/ws/account/login', { email: 'setup-nophone@demo.test', password: PASSWORD })).userToken);
      refused.push(String(body(await thief.post('/ws/account/config-totp', { userToken })).resultCode));
      const setPassword = String(body(await victim.post('/ws/account/login', { email: 'newpass@demo.test', password: PASSWORD })).verificationCode);
      refused.push(String(body(await thief.post('/ws/account/reset-password-commit', { verificationCode: setPassword, password: 'Thi3f-Pass' })).resultCode));
      await victim.post('/ws/account/reset-password-init', { email: 'sms@demo.test', verifyBy: 'TEXT', phoneDigits: '0123' });
      const texted = (await outbox(app, '+14155550123'))[0]!.code!;
      refused.push(String(body(await thief.post('/ws/account/reset-password-verify', { email: 'sms@demo.test', verificationCode: texted })).resultCode));
      const afterText = body(await victim.post('/ws/account/reset-password-verify', { email: 'sms@demo.test', verificationCode: texted }));
      refused.push(
        String(
          body(await thief.post('/ws/account/reset-password-commit', { verificationCode: String(afterText.verificationCode), password: 'Thi3f-Pass' }))
            .resultCode,
        ),
      );
      const idp = String(body(await victim.post('/ws/account/saml-init', { email: 'sso@demo.test' })).url);
      const idpPost = (c: Client) =>
        c.send({
          method: 'POST',
          url: '/dev/idp',
          payload: `request=${encodeURIComponent(new URL(idp, 'http://x').searchParams.get('request')!)}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
      refused.push(String((await idpPost(thief)).statusCode));
      expect(refused).toEqual([
        'INVALID_LOGIN_TOKEN',
        'INVALID_USER_TOKEN',
        'UNKNOWN_VERIFICATION_CODE',
        'UNKNOWN_VERIFICATION_CODE',
        'UNKNOWN_VERIFICATION_CODE',
        '400',
      ]);
      // Controls: in the browser that earned them they work.
      expect(body(await victim.post('/ws/account/mfa-login', { loginToken, code: await totp(DEMO_TOTP_SECRET, Date.now()) }))).toMatchObject({
        resultCode: 'SUCCESS',
      });
      expect(body(await victim.post('/ws/account/config-totp', { userToken }))).toMatchObject({ resultCode: 'SUCCESS' });
      expect(body(await victim.post('/ws/account/reset-password-commit', { verificationCode: setPassword, password: 'Own3r-Pass!' }))).toMatchObject({
        resultCode: 'SUCCESS',
      });
      expect(
        body(await victim.post('/ws/account/reset-password-commit', { verificationCode: String(afterText.verificationCode), password: 'Own3r-Pass!' })),
      ).toMatchObject({ resultCode: 'MFA_REQUIRED' });
      expect((await idpPost(victim)).statusCode).toBe(303);
      const cookie = [...victim.cookies.keys()].find((k) => k.endsWith('fd_bind'));
      expect(cookie).toBe('fd_bind');
      figure(
        2,
        'tokens from a URL (login, set-up, set-password, text-reset code, reset, IdP request) accepted in another client',
        'all',
        `0 of ${refused.length}`,
      );

      // "Sign out everywhere" ends the tokens too: a sign-in waiting for its second factor elsewhere.
      const signedIn = client(app, '192.0.2.13');
      const mfa = body(await signedIn.post('/ws/account/login', { email: 'multi@demo.test', password: PASSWORD }));
      expect(
        body(await signedIn.post('/ws/account/mfa-login', { loginToken: mfa.loginToken, code: await totp(DEMO_TOTP_SECRET, Date.now() + 30_000) })),
      ).toMatchObject({
        resultCode: 'SUCCESS',
      });
      const other = client(app, '192.0.2.12');
      const pending = String(body(await other.post('/ws/account/login', { email: 'multi@demo.test', password: PASSWORD })).loginToken);
      expect(body(await other.post('/ws/account/switch-mfa', { loginToken: pending, mfaType: 'TOTP' }))).toMatchObject({ resultCode: 'SUCCESS' }); // control
      expect((await signedIn.get('/ws/account/logout?sessions=all')).statusCode).toBe(200);
      expect(body(await other.post('/ws/account/switch-mfa', { loginToken: pending, mfaType: 'TOTP' }))).toEqual({ resultCode: 'INVALID_LOGIN_TOKEN' });
      figure(2, "tokens still valid after 'sign out everywhere'", 'all', 0);
    } finally {
      await app.close();
    }
  });
});

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
      const signIn = body(await owner.post('/ws/account/mfa-login', { loginToken: mfa.loginToken, code: await totp(DEMO_TOTP_SECRET, clock) }));
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

describe('6. race on a WebAuthn assertion', () => {
  it('one assertion sent six times at once on one login token: one session', async () => {
    const app = await makeApp({ rateLimit: false });
    try {
      const key = softKey();
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
        return { loginToken: String(mfa.loginToken), assertion: key.assertion(challenge, 'http://localhost:8080', 'localhost') };
      };
      const { loginToken, assertion } = await start();
      const answers = await Promise.all(
        Array.from({ length: 6 }, () =>
          visitor.post('/ws/account/u2f-login', { loginToken, publicKeyCredentialJson: assertion }).then((r) => body(r).resultCode),
        ),
      );
      const sessions = answers.filter((a) => a === 'SUCCESS').length;
      expect(sessions).toBe(1);
      expect(await count(app, 'SELECT count(*) AS n FROM sessions WHERE user_id = ?', [user])).toBe(1);
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
    });
    try {
      const until = Date.now() + 30_000;
      while (!/frontdoor: http:\/\/localhost:\d+/.test(proc.output()) && Date.now() < until && proc.child.exitCode === null)
        await new Promise((r) => setTimeout(r, 100));
      const port = /frontdoor: http:\/\/localhost:(\d+)/.exec(proc.output())?.[1];
      expect(port, proc.output()).toBeDefined();
      expect(await healthy(`http://127.0.0.1:${port}`, proc)).toBe(true);
      expect(proc.output()).toMatch(/^frontdoor: PUBLIC_URL is https and TRUST_PROXY is unset/m);
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
      expect(told).toContain('Your phone number was changed');
      figure(8, 'owner told of a new phone number', 'no', 'by email, once the code came back');
    } finally {
      await app.close();
    }
  });
});

describe('9. trial links and invitations', () => {
  it('unknown links are counted per address; codes are hashed; an unknown or used link gives no personal data', async () => {
    const app = await makeApp({ rateLimit: false });
    try {
      const prober = client(app, '203.0.113.66');
      let answered = 0;
      for (let i = 0; i < 120; i += 1) {
        const res = await prober.get(`/account/register/GUESS-${i}`);
        if (res.statusCode === 200) {
          answered += 1;
          expect(body(res)).toEqual({ resultCode: 'ERR_INVITE_NOT_FOUND' });
        }
      }
      expect(answered).toBe(LIMITS.unknownCodesPerAddressPerHour);
      figure(9, 'unknown trial-link codes answered per address per hour, of 120', '120 (not counted)', answered);
      // Control: another visitor's real link still prefills.
      expect(body(await client(app, '192.0.2.10').get('/account/register/DEMO-TRIAL'))).toMatchObject({ resultCode: 'SUCCESS', email: 'dana.lee@demo.test' });

      const stored = JSON.stringify([...(await app.fd.data.all('SELECT * FROM trial_links')), ...(await app.fd.data.all('SELECT * FROM invitations'))]);
      expect(stored).not.toContain('DEMO-');
      figure(9, 'trial-link and invitation codes stored in clear', 'all', 'none (sha256)');

      // A link used by a registration keeps none of the invitee's data; its answer names only the representative.
      const invitee = client(app, '192.0.2.12');
      await invitee.post('/ws/account/register', {
        companyName: 'Demo Co',
        firstName: 'Dana',
        lastName: 'Lee',
        email: 'dana.lee@demo.test',
        password: 'Str0ng-Pass',
        passwordConfirm: 'Str0ng-Pass',
        trialLinkCode: 'DEMO-TRIAL',
      });
      const used = body(await client(app, '192.0.2.13').get('/account/register/DEMO-TRIAL'));
      expect(used).toEqual({ resultCode: 'ERR_INVITE_USED', message: 'Sam Rivera', salesRepresentative: 'Sam Rivera' });
      expect(JSON.stringify(await app.fd.data.all('SELECT * FROM trial_links'))).not.toMatch(/dana|Demo Co/i);
      figure(
        9,
        "invitee's data to an unknown / a used link",
        'none / none (kept in the row)',
        'none / none (erased from the row); a used link names the representative only (SPEC §8)',
      );
    } finally {
      await app.close();
    }
  });
});

describe('10. pre-registration', () => {
  it("the victim's click on the genuine activation link no longer activates the attacker's password", async () => {
    const app = await makeApp({ rateLimit: false });
    try {
      const form = { companyName: 'Squat Co', firstName: 'V', lastName: 'Ictim', password: 'Attack3r-Pass', passwordConfirm: 'Attack3r-Pass' };
      const attacker = client(app, '203.0.113.66');
      expect(body(await attacker.post('/ws/account/register', { ...form, email: 'victim@example.test' }))).toEqual({ resultCode: 'SUCCESS' });
      const key = lastPart((await outbox(app, 'victim@example.test'))[0]!.link);
      const victim = client(app, '192.0.2.10');
      expect(body(await victim.post('/ws/account/activate', { activationKey: key }))).toEqual({ resultCode: 'PASSWORD_REQUIRED' });
      const before = body(await attacker.post('/ws/account/login', { email: 'victim@example.test', password: 'Attack3r-Pass' }));
      expect(before).toEqual({ resultCode: 'ACCOUNT_NOT_ACTIVATED' });
      // The victim does not know that password: she chooses her own.
      expect(body(await victim.post('/ws/account/activate-account', { activationKey: key, newPassword: 'Vict1m-Own-Pass' }))).toMatchObject({
        resultCode: 'SETUP_MFA',
      });
      const after = body(await attacker.post('/ws/account/login', { email: 'victim@example.test', password: 'Attack3r-Pass' }));
      expect(after).toEqual({ resultCode: 'AUTHENTICATION_FAILURE' });
      figure(
        10,
        "attacker's password after the victim opened the genuine activation link",
        "signed in (SETUP_MFA as the new organisation's admin)",
        String(after.resultCode),
      );
      // Control: a genuine registrant activates with the password chosen at registration.
      const person = client(app, '192.0.2.11');
      await person.post('/ws/account/register', { ...form, email: 'genuine@example.test', password: 'Genu1ne-Pass', passwordConfirm: 'Genu1ne-Pass' });
      const own = lastPart((await outbox(app, 'genuine@example.test'))[0]!.link);
      expect(body(await person.post('/ws/account/activate-account', { activationKey: own, password: 'Genu1ne-Pass' }))).toMatchObject({
        resultCode: 'SETUP_MFA',
      });
    } finally {
      await app.close();
    }
  });
});

describe('11. smaller findings', () => {
  it('Duo: streams capped per channel and closed when the channel ends; an approval reaches another instance', async () => {
    const store = await newStore({ shared: true });
    const a = await makeApp({ ...store.options, appSecret: TEST_APP_SECRET, rateLimit: false });
    const b = await makeApp({ ...store.options, appSecret: TEST_APP_SECRET, seed: false, rateLimit: false });
    const opened: ReadableStreamDefaultReader<Uint8Array>[] = [];
    try {
      const visitor = client(a);
      const mfa = body(await visitor.post('/ws/account/login', { email: 'duo@demo.test', password: PASSWORD }));
      const channel = String(mfa.duoChannelId);
      const base = await b.listen({ port: 0, host: '127.0.0.1' });
      const statuses: number[] = [];
      for (let i = 0; i < 10; i += 1) {
        const res = await fetch(`${base}/ws/account/duo-channel/${encodeURIComponent(channel)}`);
        statuses.push(res.status);
        if (res.ok) opened.push(res.body!.getReader());
        else await res.body?.cancel();
      }
      const held = statuses.filter((s) => s === 200).length;
      expect(held).toBe(LIMITS.duoStreamsPerChannel);
      expect(statuses.filter((s) => s === 429)).toHaveLength(10 - LIMITS.duoStreamsPerChannel);
      // Approved on instance A; the stream held by instance B receives the code.
      await a.inject({
        method: 'POST',
        url: '/dev/duo',
        payload: `channel=${encodeURIComponent(channel)}&decision=approve`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      let text = '';
      const reader = opened[0]!;
      while (!/data: .*\n\n/.test(text)) text += new TextDecoder().decode((await reader.read()).value);
      const code = (JSON.parse(/data: (.*)\n\n/.exec(text)![1]!) as { mfaCode: string }).mfaCode;
      expect(code).toMatch(/^\d{6}$/);
      figure(11, 'a Duo approval on one instance reaches a visitor waiting on another', 'no', 'yes');
      // Control: the code signs in the visitor; that ends the channel, and so its streams.
      const t0 = Date.now();
      expect(body(await visitor.post('/ws/account/mfa-login', { loginToken: mfa.loginToken, code }))).toMatchObject({ resultCode: 'SUCCESS' });
      const ended = await Promise.all(
        opened.map(async (r) => {
          for (;;) if ((await r.read()).done) return true;
        }),
      );
      expect(ended.every(Boolean)).toBe(true);
      expect(await count(a, 'SELECT count(*) AS n FROM duo_streams')).toBe(0);
      figure(
        11,
        'event streams held open on one Duo channel, of 10 opened',
        '10 (3,000: +41 MB, +3,000 descriptors, open after the channel expired)',
        `${held}; all closed when the channel ended (${Date.now() - t0} ms)`,
      );
    } finally {
      for (const r of opened) await r.cancel().catch(() => undefined);
      await a.close();
      await b.close();
      await store.dispose();
    }
  }, 30_000);

  it('a crash inside login/totp leaves no enrolment without its notice and no usable token', async () => {
    const clock = Date.UTC(2026, 0, 1, 12, 0, 15);
    const app = await makeApp({ rateLimit: false, now: () => clock });
    try {
      const visitor = client(app);
      const token = String(body(await visitor.post('/ws/account/login', { email: 'setup@demo.test', password: PASSWORD })).userToken);
      const { key } = body(await visitor.post('/ws/account/config-totp', { userToken: token })) as { key: string };
      const codes = { key, code: await totp(key, clock - 30_000), secondaryCode: await totp(key, clock), userToken: token };
      // The process dies between the enrolment and its notice email (the notice cannot be written).
      const send = app.fd.outbox.send;
      app.fd.outbox.send = () => {
        throw new Error('killed');
      };
      const crashed = await visitor.post('/ws/account/login/totp', codes);
      app.fd.outbox.send = send;
      expect(crashed.statusCode).toBe(500);
      const enrolled = await count(app, "SELECT count(*) AS n FROM mfa_enrolments e JOIN users u ON u.id = e.user_id WHERE u.email = 'setup@demo.test'");
      const tokenUsed = await count(app, 'SELECT count(*) AS n FROM login_tokens WHERE used_at IS NOT NULL');
      expect([enrolled, tokenUsed]).toEqual([0, 0]);
      figure(11, 'enrolments without their notice email after a crash inside login/totp', '1 (and the unused token then enrolled a second factor)', enrolled);
      // Control: the same request again enrols, with the notice, and the token is spent.
      expect(body(await visitor.post('/ws/account/login/totp', codes))).toMatchObject({ resultCode: 'SUCCESS' });
      expect((await outbox(app, 'setup@demo.test')).map((m) => m.subject)).toContain('A sign-in method was added');
      expect(body(await visitor.post('/ws/account/config-totp', { userToken: token }))).toEqual({ resultCode: 'INVALID_USER_TOKEN' });
    } finally {
      await app.close();
    }
  });
});

describe('figures', () => {
  it('docs/security.md quotes the figures the suite measured (timings aside)', () => {
    const doc = fs.readFileSync('docs/security.md', 'utf8');
    const missing = figures
      .map((f) => `| ${f.finding} | ${f.what} | ${f.before} | ${f.after.replace(/ \(\d+ ms\)/, '')} |`)
      .filter((row) => !doc.includes(row));
    expect(missing, `rows to copy into docs/security.md:\n${missing.join('\n')}`).toEqual([]);
  });
});
