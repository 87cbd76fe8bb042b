/**
 * The attack of issue 35, finding 1 (a planted passkey outlives every remedy), replayed against the
 * real server (docs/security.md): someone with a fresh session of the owner's (here a copied cookie)
 * adds a passkey. Every way the owner takes the account back must end it: the reset's list of passkeys
 * (by email and by text), "sign out everywhere", the admin's `reset-mfa` and `passkeys`, and "This
 * wasn't me" in the "passkey added" email; a removed passkey is refused at once, also by another
 * instance. Each refusal has its control: the owner's own passkey, password and paths still work.
 */
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { PASSKEY_COMMANDS } from '../../../server/admin/passkeys';
import { resetMfa } from '../../../server/admin/commands';
import { REVIEW_GRANT_USES } from '../../../server/services/passkeyReview';
import { createPasswordService } from '../../../server/crypto/passwords';
import { call, demoAppPerFile } from '../../server/demo-helpers';
import { makeApp, PASSWORD, TEST_APP_SECRET, TEST_PASSWORD_COST } from '../../server/helpers';
import { enrol, loginOptions, passkeyLogin, signedIn, signInWith, type Body } from '../../server/passkey-steps';
import { softPasskey } from '../../server/soft-passkey';
import { newStore } from '../../server/test-database';
import { client, figure, lastPart, outbox, reportFigures, type Client } from '../attack-helpers';

const T0 = Date.UTC(2026, 10, 28, 9, 0, 0);
let clock = T0;
let app: FastifyInstance;
demoAppPerFile({ now: () => clock, rewind: () => (clock = T0), ready: (made) => (app = made) });

const NEW_PASSWORD = 'New-Passw0rd!35';

/** The attacker's browser: a copy of the owner's session cookie (a stolen cookie), then its own passkey. */
async function plantPasskey(owner: Client): Promise<ReturnType<typeof softPasskey>> {
  const attacker = client(app, '203.0.113.66');
  for (const [name, value] of owner.cookies) attacker.cookies.set(name, value);
  return enrol(attacker);
}

/** The owner's password reset by email, finished in `browser`: the commit's answer. */
async function resetByEmail(browser: Client, email: string): Promise<Body> {
  expect((await call(browser, 'resetPasswordInit', '/ws/account/reset-password-init', { email, verifyBy: 'EMAIL' })).resultCode).toBe('SUCCESS');
  const code = lastPart((await outbox(app, email)).find((m) => m.link?.includes('/resetPassword/'))?.link);
  return call(browser, 'resetPasswordCommit', '/ws/account/reset-password-commit', { password: NEW_PASSWORD, verificationCode: code });
}

const review = (browser: Client) => call(browser, 'passkeyReview', '/ws/account/passkey/review', {});
const removeFrom = (browser: Client, which: { passkey: number } | { all: true }) =>
  call(browser, 'passkeyReviewRemove', '/ws/account/passkey/review/remove', which);
const sessionAlive = async (browser: Client) => (await browser.get('/ws/account/session')).statusCode === 200;

describe('1. a planted passkey outlives every remedy', () => {
  it("the reset by email lists the account's passkeys to the owner's browser, each removable; the planted one is refused at once", async () => {
    const owner = await signedIn(app, 'nomfa@demo.test', '192.0.2.10');
    const own = await enrol(owner);
    const planted = await plantPasskey(owner);
    expect(await signInWith(app, planted)).toBe('SUCCESS');

    const resetBrowser = client(app, '192.0.2.10');
    expect(await resetByEmail(resetBrowser, 'nomfa@demo.test')).toMatchObject({ resultCode: 'SUCCESS' });
    // The success screen (/passkey) says REVIEW; the list names both, newest first, with what the owner recognises them by.
    expect(await call(resetBrowser, 'passkeyOffer', '/ws/account/passkey/offer')).toEqual({ resultCode: 'REVIEW', userType: 'TECHNICIAN' });
    const listed = await review(resetBrowser);
    const passkeys = listed.passkeys as { id: number; createdAt: number; synced: boolean }[];
    expect(passkeys).toHaveLength(2);
    expect(passkeys[0]).toMatchObject({ createdAt: T0, synced: true });
    // Another browser (the attacker's) gets nothing from the reset's grant.
    expect(await review(client(app, '203.0.113.66'))).toEqual({ resultCode: 'NOT_ALLOWED' });
    // The owner removes the newest (the planted one): refused at once; the owner's own still signs in.
    const removed = await removeFrom(resetBrowser, { passkey: passkeys[0]!.id });
    expect(removed).toMatchObject({ resultCode: 'SUCCESS', removed: 1 });
    expect(removed.passkeys).toHaveLength(1);
    expect(await signInWith(app, planted)).toBe('UNKNOWN_CREDENTIAL');
    figure(
      1,
      "attacker's passkey signs in after the owner's reset (its list shown, the unknown passkey removed)",
      'yes (SUCCESS, a session of the owner)',
      'no',
    );
    expect(await signInWith(app, own)).toBe('SUCCESS');
    // An id of another account removes nothing; "remove all" empties the list.
    expect(await removeFrom(resetBrowser, { passkey: 999_999 })).toMatchObject({ resultCode: 'SUCCESS', removed: 0 });
    expect(await removeFrom(resetBrowser, { all: true })).toMatchObject({ resultCode: 'SUCCESS', removed: 1, passkeys: [] });
    expect(await signInWith(app, own)).toBe('UNKNOWN_CREDENTIAL');
  });

  it("the grant is this browser's, for 15 minutes and a few calls; a sign-in without a reset shows no list", async () => {
    const owner = await signedIn(app);
    await enrol(owner);
    // Control: a plain sign-in is not a reset: no list, no grant.
    expect(await call(await signedIn(app), 'passkeyOffer', '/ws/account/passkey/offer')).toMatchObject({ resultCode: 'NO_OFFER' });
    expect(await review(owner)).toEqual({ resultCode: 'NOT_ALLOWED' });
    const browser = client(app);
    await resetByEmail(browser, 'nomfa@demo.test');
    for (let i = 0; i < REVIEW_GRANT_USES; i++) expect((await review(browser)).resultCode).toBe('SUCCESS');
    expect(await review(browser)).toEqual({ resultCode: 'NOT_ALLOWED' });
    const later = client(app);
    await resetByEmail(later, 'nomfa@demo.test');
    clock += 15 * 60_000 + 1;
    expect(await review(later)).toEqual({ resultCode: 'NOT_ALLOWED' });
    // The same browser signs in again after the grant ended: the offer's screen goes straight on.
    expect((await call(later, 'login', '/ws/account/login', { email: 'nomfa@demo.test', password: NEW_PASSWORD })).resultCode).toBe('SUCCESS');
    expect(await call(later, 'passkeyOffer', '/ws/account/passkey/offer')).toMatchObject({ resultCode: 'NO_OFFER' });
  });

  it('the reset by text earns the same list, before the second factor the account still asks for', async () => {
    // sms@ signs in with a texted code; the owner adds a passkey, the attacker plants one with the stolen cookie.
    const owner = client(app);
    const mfa = await call(owner, 'login', '/ws/account/login', { email: 'sms@demo.test', password: PASSWORD });
    const smsCode = (await outbox(app, '+14155550123'))[0]?.code;
    expect((await call(owner, 'mfaLogin', '/ws/account/mfa-login', { loginToken: mfa.loginToken, code: smsCode })).resultCode).toBe('SUCCESS');
    const planted = await plantPasskey(owner);

    const browser = client(app);
    await call(browser, 'resetPasswordInit', '/ws/account/reset-password-init', { email: 'sms@demo.test', verifyBy: 'TEXT', phoneDigits: '0123' });
    const texted = (await outbox(app, '+14155550123'))[0]?.code;
    const verified = await call(browser, 'resetPasswordVerify', '/ws/account/reset-password-verify', { email: 'sms@demo.test', verificationCode: texted });
    const commit = await call(browser, 'resetPasswordCommit', '/ws/account/reset-password-commit', {
      password: NEW_PASSWORD,
      verificationCode: verified.verificationCode,
    });
    expect(commit.resultCode).toBe('MFA_REQUIRED');
    expect(((await review(browser)).passkeys as unknown[]).length).toBe(1);
    expect(await removeFrom(browser, { all: true })).toMatchObject({ resultCode: 'SUCCESS', removed: 1 });
    expect(await signInWith(app, planted)).toBe('UNKNOWN_CREDENTIAL');
    figure(1, "attacker's passkey signs in after the owner's reset by text", 'yes', 'no');
    // Control: the owner finishes the sign-in with the second factor.
    const code = (await outbox(app, '+14155550123'))[0]?.code;
    expect((await call(browser, 'mfaLogin', '/ws/account/mfa-login', { loginToken: commit.loginToken, code })).resultCode).toBe('SUCCESS');
  });

  it("'sign out everywhere' ends every passkey but the one the asking session signed in with", async () => {
    const owner = await signedIn(app);
    const own = await enrol(owner);
    const planted = await plantPasskey(owner);
    // The owner resets the password (and ignores the list), then signs out everywhere from a passkey session.
    await resetByEmail(client(app), 'nomfa@demo.test');
    expect(await signInWith(app, planted)).toBe('SUCCESS'); // still there: the reset alone removes nothing
    const ownSession = client(app);
    expect((await passkeyLogin(ownSession, own.assert(await loginOptions(ownSession)))).resultCode).toBe('SUCCESS');
    const attackerSession = client(app);
    expect((await passkeyLogin(attackerSession, planted.assert(await loginOptions(attackerSession)))).resultCode).toBe('SUCCESS');
    expect((await ownSession.get('/ws/account/logout?sessions=all')).statusCode).toBe(200);
    expect(await sessionAlive(attackerSession)).toBe(false);
    expect(await signInWith(app, planted)).toBe('UNKNOWN_CREDENTIAL');
    figure(1, "attacker's passkey signs in after the owner's reset + sign out everywhere", 'yes (SUCCESS, a session of the owner)', 'no');
    // Control: the passkey that asked is the owner's: it still signs in; the new password too.
    expect(await signInWith(app, own)).toBe('SUCCESS');
    expect((await call(client(app), 'login', '/ws/account/login', { email: 'nomfa@demo.test', password: NEW_PASSWORD })).resultCode).toBe('SUCCESS');
  });

  it('admin reset-mfa removes the passkeys (none skips MFA set-up any more); admin passkeys lists and removes', async () => {
    // tech@ (TOTP) gets a passkey while its MFA is off, then signs in with it alone.
    await app.fd.data.run("UPDATE users SET mfa_required = 0 WHERE email = 'tech@demo.test'");
    const planted = await plantPasskey(await signedIn(app, 'tech@demo.test'));
    await app.fd.data.run("UPDATE users SET mfa_required = 1 WHERE email = 'tech@demo.test'");
    const admin = { db: app.fd.data, passwords: createPasswordService(TEST_PASSWORD_COST), now: () => clock };
    const lines: string[] = [];
    await PASSKEY_COMMANDS.passkeys!.run(admin, { email: 'TECH@demo.test' }, (l) => lines.push(l));
    expect(lines[0]).toBe('passkeys of tech@demo.test: 1');
    expect(lines[1]).toMatch(/^ {2}#\d+ {2}added 2026-11-28 09:00 UTC, never used, browser unknown, synced$/);
    expect(await resetMfa(admin, 'tech@demo.test')).toMatchObject({ methods: 1, passkeys: 1 });
    expect(await signInWith(app, planted)).toBe('UNKNOWN_CREDENTIAL');
    figure(1, "a passkey after the admin's reset-mfa: signs in, skipping MFA set-up", 'yes', 'no (removed; the password gives SETUP_MFA)');
    expect((await call(client(app), 'login', '/ws/account/login', { email: 'tech@demo.test', password: PASSWORD })).resultCode).toBe('SETUP_MFA');

    // `passkeys --remove <id>`: that one goes, another account's stays (control).
    const nomfa = await enrol(await signedIn(app));
    const other = await enrol(await signedIn(app, 'user@demo.test'));
    const id = (await app.fd.data.get<{ id: number }>('SELECT id FROM passkeys WHERE credential_id = ?', [nomfa.credentialId]))!.id;
    const out: string[] = [];
    await expect(PASSKEY_COMMANDS.passkeys!.run(admin, { email: 'user@demo.test', remove: String(id) }, () => undefined)).rejects.toThrow(/has no passkey/);
    expect(await signInWith(app, nomfa)).toBe('SUCCESS');
    await PASSKEY_COMMANDS.passkeys!.run(admin, { email: 'nomfa@demo.test', remove: String(id) }, (l) => out.push(l));
    expect(out).toContain('1 passkey(s) of nomfa@demo.test removed; the sessions they signed in ended');
    expect(await signInWith(app, nomfa)).toBe('UNKNOWN_CREDENTIAL');
    await PASSKEY_COMMANDS.passkeys!.run(admin, { email: 'user@demo.test', 'remove-all': true }, (l) => out.push(l));
    expect(await signInWith(app, other)).toBe('UNKNOWN_CREDENTIAL');
  });

  it("'This wasn't me' in the 'passkey added' email: the link's page changes nothing, the click removes it and ends every session", async () => {
    const owner = await signedIn(app);
    const planted = await plantPasskey(owner);
    const attackerSession = client(app);
    expect((await passkeyLogin(attackerSession, planted.assert(await loginOptions(attackerSession)))).resultCode).toBe('SUCCESS');
    const mail = (await outbox(app, 'nomfa@demo.test')).find((m) => m.subject === 'A passkey was added to your Front Door account')!;
    expect(mail.text).toContain("This wasn't me: http://localhost:8080/passkey/not-me/");
    expect(mail.link).toMatch(/^http:\/\/localhost:8080\/passkey\/not-me\/[A-Za-z0-9._%-]+$/);
    // The link opens the catalogue's screen for it (screens/passkeyNotMe.json).
    const route = (JSON.parse(fs.readFileSync('screens/passkeyNotMe.json', 'utf8')) as { routes: { path: string }[] }).routes[0]!.path;
    expect(new URL(mail.link!).pathname).toMatch(new RegExp(`^${route.replace(':token', '[^/]+')}$`));
    // An email scanner opens the link: a page, nothing else.
    const scanned = await client(app).get(new URL(mail.link!).pathname, { headers: { accept: 'text/html' } });
    expect(scanned.statusCode).toBe(200);
    expect(await sessionAlive(attackerSession)).toBe(true);
    expect(await signInWith(app, planted)).toBe('SUCCESS');
    // The owner clicks: the passkey goes, every session ends (the owner's too), once.
    const token = lastPart(mail.link);
    expect(await call(client(app), 'passkeyNotMe', '/ws/account/passkey/not-me', { token })).toMatchObject({ resultCode: 'SUCCESS', removed: 1 });
    expect(await signInWith(app, planted)).toBe('UNKNOWN_CREDENTIAL');
    expect(await sessionAlive(attackerSession)).toBe(false);
    expect(await sessionAlive(owner)).toBe(false);
    figure(
      1,
      "'This wasn't me' in the passkey-added email: the passkey / the attacker's sessions",
      'no such link (the email advised a new password)',
      'removed / ended',
    );
    expect(await call(client(app), 'passkeyNotMe', '/ws/account/passkey/not-me', { token })).toEqual({ resultCode: 'LINK_INVALID' });
    // Control: the owner signs in with the password.
    expect((await call(client(app), 'login', '/ws/account/login', { email: 'nomfa@demo.test', password: PASSWORD })).resultCode).toBe('SUCCESS');
  });

  it("a 'This wasn't me' link expires after 7 days and is refused when forged; wrong links are counted per address", async () => {
    const planted = await plantPasskey(await signedIn(app));
    const link = (await outbox(app, 'nomfa@demo.test')).find((m) => m.link?.includes('/passkey/not-me/'))!.link;
    const prober = client(app, '203.0.113.99');
    expect(await call(prober, 'passkeyNotMe', '/ws/account/passkey/not-me', { token: `${lastPart(link)}x` })).toEqual({ resultCode: 'LINK_INVALID' });
    clock += 7 * 24 * 3600_000 + 1;
    expect(await call(client(app), 'passkeyNotMe', '/ws/account/passkey/not-me', { token: lastPart(link) })).toEqual({ resultCode: 'LINK_INVALID' });
    expect(await signInWith(app, planted)).toBe('SUCCESS');
    for (let i = 0; i < 60; i++) await prober.post('/ws/account/passkey/not-me', { token: `forged-${i}` });
    expect((await prober.post('/ws/account/passkey/not-me', { token: 'forged' })).statusCode).toBe(429);
  });
});

describe('1. a removed passkey is refused at once, on every instance', () => {
  it('removed through one instance, refused by the other at its next assertion; the session it made there ends', async () => {
    const store = await newStore({ shared: true });
    const a = await makeApp({ ...store.options, appSecret: TEST_APP_SECRET, rateLimit: false });
    const b = await makeApp({ ...store.options, appSecret: TEST_APP_SECRET, seed: false, rateLimit: false });
    try {
      const key = await enrol(await signedIn(a));
      expect(await signInWith(b, key)).toBe('SUCCESS'); // control: instance B knows it
      const onB = client(b);
      expect((await passkeyLogin(onB, key.assert(await loginOptions(onB)))).resultCode).toBe('SUCCESS');
      const browser = client(a);
      expect((await call(browser, 'resetPasswordInit', '/ws/account/reset-password-init', { email: 'nomfa@demo.test', verifyBy: 'EMAIL' })).resultCode).toBe(
        'SUCCESS',
      );
      const code = lastPart((await outbox(a, 'nomfa@demo.test')).find((m) => m.link?.includes('/resetPassword/'))?.link);
      await call(browser, 'resetPasswordCommit', '/ws/account/reset-password-commit', { password: NEW_PASSWORD, verificationCode: code });
      const stillThere = client(b);
      expect((await passkeyLogin(stillThere, key.assert(await loginOptions(stillThere)))).resultCode).toBe('SUCCESS');
      expect(await call(browser, 'passkeyReviewRemove', '/ws/account/passkey/review/remove', { all: true })).toMatchObject({ removed: 1 });
      expect(await signInWith(b, key)).toBe('UNKNOWN_CREDENTIAL');
      expect(await sessionAlive(stillThere)).toBe(false);
      figure(
        1,
        'a passkey removed through one instance, at its next assertion on another',
        'no way to remove one',
        'refused (UNKNOWN_CREDENTIAL: its browser is told to forget it), its session ended',
      );
    } finally {
      await a.close();
      await b.close();
      await store.dispose();
    }
  });
});

reportFigures('3-issue-35-passkeys-a', 'The attack of issue 35, finding 1 (passkeys)');
