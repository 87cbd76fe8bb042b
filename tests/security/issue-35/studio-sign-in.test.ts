/**
 * The attack of issue 35, finding 8 (the studio's part), replayed against the real server on the run's
 * engine: five wrong studio passwords locked an editor out for 15 minutes from anywhere, and studio
 * sign-in asked for no second factor. Studio people now sign in on the product's sign-in page: its
 * limits (per account and per address an hour, the bot check after three failures) and its second
 * factor. Each refusal beside its control; figures: docs/security.md.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../../server/services/limits';
import { botToken, PASSWORD } from '../../server/helpers';
import { addAccount, giveRole, PEOPLE, studioServer, type StudioServer } from '../../server/studio-helpers';
import { body, client, DEMO_TOTP_SECRET, figure, reportFigures, totp, type Client } from '../attack-helpers';

/** A studio person whose sign-in asks for an authenticator code (the demo's TOTP secret). */
async function withAuthenticator(s: StudioServer, email: string): Promise<void> {
  const id = await addAccount(s.data, email, { mfaRequired: true });
  await s.data.run('INSERT INTO mfa_enrolments (user_id, type, position, secret, created_at) VALUES (?, ?, 0, ?, 1)', [
    id,
    'TOTP',
    s.app.fd.seal(DEMO_TOTP_SECRET),
  ]);
  await giveRole(s.data, email, 'approver');
}

/** The password step, then the authenticator's code: the browser holds a session at the end. */
async function signInWithCode(person: Client, email: string): Promise<void> {
  const first = body(await person.post('/ws/account/login', { email, password: PASSWORD }));
  expect(first).toMatchObject({ resultCode: 'MFA_REQUIRED', mfaType: 'TOTP' });
  expect(body(await person.post('/ws/account/mfa-login', { loginToken: first.loginToken, code: await totp(Date.now()) }))).toMatchObject({
    resultCode: 'SUCCESS',
  });
}

describe('8. studio sign-in in demo mode: the product limits and second factor', () => {
  let s: StudioServer;
  beforeAll(async () => {
    // The per-address limit of the sign-in endpoints on, as served; cheap proof-of-work for the many bot checks.
    s = await studioServer(undefined, undefined, { rateLimit: {}, botCheckWork: { min: 1, max: 20 } });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('50 wrong passwords do not lock the editor out (control: the editor signs in and enters the studio)', async () => {
    const at = '203.0.113.66';
    const attacker = client(s.app, at);
    // The studio's own sign-in, which locked an email after five failures, takes no password now.
    expect((await attacker.post('/dev/studio/api/session', { email: PEOPLE.editor, password: 'guess' })).statusCode).toBe(410);
    // Where studio people sign in: the product's sign-in. The attacker even solves every bot check.
    const answers: string[] = [];
    for (let i = 0; i < 50; i += 1) {
      const res = await attacker.post('/ws/account/login', {
        email: PEOPLE.editor,
        password: `Wrong-guess-${i}`,
        recaptchaToken: await botToken(s.app, 'login', { remoteAddress: at }),
      });
      answers.push(res.statusCode === 429 ? '429' : String(body(res).resultCode));
    }
    const counted = answers.filter((a) => a === 'AUTHENTICATION_FAILURE').length;
    expect(counted).toBe(LIMITS.accountAddressFailuresPerHour);
    expect(answers.slice(counted)).toEqual(Array.from({ length: 50 - counted }, () => '429'));
    figure(
      8,
      'wrong studio passwords counted against the editor, of 50 from one address (bot check solved)',
      '5, then the email locked for 15 minutes',
      `${counted}, then 429 for that address`,
    );

    // Control: the editor, from her own address, signs in (her page solves the bot check asked for after three failures) and enters.
    const editor = client(s.app, '192.0.2.10');
    const signedIn = await editor.post('/ws/account/login', {
      email: PEOPLE.editor,
      password: PASSWORD,
      recaptchaToken: await botToken(s.app, 'login', { remoteAddress: '192.0.2.10' }),
    });
    expect(body(signedIn)).toMatchObject({ resultCode: 'SUCCESS' });
    expect(body(await editor.get('/dev/studio/api/me'))).toMatchObject({ person: { email: PEOPLE.editor, role: 'editor' }, secondFactor: false, demo: true });
    expect((await editor.get('/dev/studio/api/changes')).statusCode).toBe(200);
    figure(8, "the editor's studio sign-in after those 50 attempts", 'refused (429) for 15 minutes, from any address', 'SUCCESS');

    // "Sign out everywhere" (or a password reset) ends her studio access with her session.
    await editor.get('/ws/account/logout?sessions=all');
    expect(body(await editor.get('/dev/studio/api/me'))).toMatchObject({ person: null });
    figure(8, "studio access after the owner's 'sign out everywhere'", 'kept (a studio session of its own, 8 hours)', 'ended (the product session)');
  });

  it('a studio person with an authenticator must give its code (control: with the right code they enter)', async () => {
    const email = 'totp-approver@demo.test';
    await withAuthenticator(s, email);
    const person = client(s.app, '192.0.2.20');
    const first = body(await person.post('/ws/account/login', { email, password: PASSWORD }));
    expect(first).toMatchObject({ resultCode: 'MFA_REQUIRED', mfaType: 'TOTP' });
    // The password alone opens nothing, nor does a wrong code.
    expect(body(await person.get('/dev/studio/api/me'))).toMatchObject({ person: null });
    expect((await person.get('/dev/studio/api/changes')).statusCode).toBe(401);
    const wrong = await totp(Date.now() + 10 * 60 * 1000);
    expect(body(await person.post('/ws/account/mfa-login', { loginToken: first.loginToken, code: wrong }))).not.toMatchObject({ resultCode: 'SUCCESS' });
    expect((await person.get('/dev/studio/api/changes')).statusCode).toBe(401);
    figure(8, 'studio sign-in of a person with an authenticator, password alone', 'signed in', 'MFA_REQUIRED; the studio answers 401');

    // Control: the right code, and the studio admits the person, noting the second factor.
    expect(body(await person.post('/ws/account/mfa-login', { loginToken: first.loginToken, code: await totp(Date.now()) }))).toMatchObject({
      resultCode: 'SUCCESS',
    });
    expect(body(await person.get('/dev/studio/api/me'))).toMatchObject({ person: { email, role: 'approver' }, secondFactor: true });
    expect((await person.get('/dev/studio/api/changes')).statusCode).toBe(200);
  });
});

describe('8. studio sign-in in production: a second factor or no entry', () => {
  for (const mode of [{ nodeEnv: 'production' }, { appEnv: 'production' }]) {
    it(`${JSON.stringify(mode)}: a studio person without a second factor is refused (control: one with an authenticator enters)`, async () => {
      const s = await studioServer(undefined, undefined, mode);
      try {
        const editor = client(s.app, '192.0.2.30');
        expect(body(await editor.post('/ws/account/login', { email: PEOPLE.editor, password: PASSWORD }))).toMatchObject({ resultCode: 'SUCCESS' });
        expect(body(await editor.get('/dev/studio/api/me'))).toMatchObject({
          person: null,
          refused: { email: PEOPLE.editor, reason: 'SECOND_FACTOR_REQUIRED' },
          demo: false,
        });
        const refused = await editor.get('/dev/studio/api/changes');
        expect([refused.statusCode, body(refused).error]).toEqual([403, 'SECOND_FACTOR_REQUIRED']);
        if (mode.nodeEnv)
          figure(8, 'production studio entry of a person without a second factor', 'admitted (password alone)', 'refused (SECOND_FACTOR_REQUIRED)');

        const email = 'totp-approver@demo.test';
        await withAuthenticator(s, email);
        const person = client(s.app, '192.0.2.31');
        await signInWithCode(person, email);
        expect(body(await person.get('/dev/studio/api/me'))).toMatchObject({ person: { email, role: 'approver' }, secondFactor: true, demo: false });
      } finally {
        await s.close();
      }
    });
  }
});

reportFigures('3-issue-35-studio-sign-in', 'The attack of issue 35, finding 8: the studio');
