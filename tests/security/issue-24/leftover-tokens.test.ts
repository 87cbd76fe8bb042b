/**
 * The attack of issue 24, findings 1 and 2 (a leftover invitation code, a pending set-up token),
 * replayed against the real server (docs/security.md): each finding must fail now, beside a control
 * proving the owner's path still works. Clients are separate browsers (attack-helpers.ts client());
 * the figures are checked against the document's table.
 */
import { describe, expect, it } from 'vitest';
import { makeApp, PASSWORD } from '../../server/helpers';
import { body, client, count, figure, lastPart, outbox, totp, type Client, reportFigures } from '../attack-helpers';

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
      refused.push(String(body(await thief.post('/ws/account/mfa-login', { loginToken, code: await totp(Date.now()) })).resultCode));
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
      // /dev/idp serves SSO users without a connection: sso@ as it was before its demo SAML connection.
      await app.fd.data.run("UPDATE users SET sso_connection_id = NULL WHERE email = 'sso@demo.test'");
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
      expect(body(await victim.post('/ws/account/mfa-login', { loginToken, code: await totp(Date.now()) }))).toMatchObject({
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
      expect(body(await signedIn.post('/ws/account/mfa-login', { loginToken: mfa.loginToken, code: await totp(Date.now() + 30_000) }))).toMatchObject({
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

reportFigures('2-issue-24-a', 'The attack of issue 24, findings 1 and 2');
