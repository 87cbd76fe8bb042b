/**
 * The attack of issue 24, findings 9 to 11 (trial links, pre-registration, the smaller findings),
 * replayed against the real server (docs/security.md): each finding must fail now, beside a control
 * proving the owner's path still works. Clients are separate browsers (attack-helpers.ts client());
 * the figures are checked against the document's table.
 */
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../server/services/limits';
import { makeApp, PASSWORD, TEST_APP_SECRET } from '../../server/helpers';
import { newStore } from '../../server/test-database';
import { body, client, count, figure, lastPart, outbox, totp, reportFigures } from '../attack-helpers';

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
      const codes = { key, code: await totp(clock - 30_000, key), secondaryCode: await totp(clock, key), userToken: token };
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
      expect((await outbox(app, 'setup@demo.test')).map((m) => m.subject)).toContain('A sign-in method was added to your Front Door account');
      expect(body(await visitor.post('/ws/account/config-totp', { userToken: token }))).toEqual({ resultCode: 'INVALID_USER_TOKEN' });
    } finally {
      await app.close();
    }
  });
});

reportFigures('2-issue-24-d', 'The attack of issue 24, findings 9 to 11');
