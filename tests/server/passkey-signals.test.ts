/**
 * Issue 37 on the server: the passkey step comes with a sign-in's answer (passkeyOffer: OFFER, REVIEW
 * or nothing, services/passkeyStep.ts), what the browser is told to keep its password manager in step
 * (passkeySignals: services/passkeySignals.ts), a removed passkey answered UNKNOWN_CREDENTIAL (to the
 * browser that asked for the challenge only), and the password manager's silent creation (conditional
 * create: no user presence or verification, for its own challenge only). Each refusal beside its control.
 */
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { client, lastPart, type Client } from '../security/attack-helpers';
import { call, demoAppPerFile, outbox, totp } from './demo-helpers';
import { PASSWORD } from './helpers';
import { enrol, loginOptions, passkeyLogin, signedIn, type Creation } from './passkey-steps';
import { softPasskey } from './soft-passkey';

const T0 = Date.UTC(2026, 10, 29, 9, 0, 15);
let clock = T0;
let app: FastifyInstance;
demoAppPerFile({ now: () => clock, rewind: () => (clock = T0), ready: (made) => (app = made) });

const login = (browser: Client, email: string, password = PASSWORD) => call(browser, 'login', '/ws/account/login', { email, password });
/** The user handle of an account's passkeys: its uid's bytes, base64url. */
const handleOf = async (email: string) =>
  Buffer.from((await app.fd.data.get<{ uid: string }>('SELECT uid FROM users WHERE email = ?', [email]))!.uid).toString('base64url');

describe('the passkey step comes with the sign-in answer', () => {
  it('OFFER for an account that may add one; nothing once it has one, or declined, or signs in with single sign-on', async () => {
    expect(await login(client(app), 'nomfa@demo.test')).toEqual({ resultCode: 'SUCCESS', userType: 'TECHNICIAN', passkeyOffer: 'OFFER' });
    await enrol(await signedIn(app));
    expect(await login(client(app), 'nomfa@demo.test')).toEqual({ resultCode: 'SUCCESS', userType: 'TECHNICIAN' });

    const declining = await signedIn(app, 'user@demo.test');
    await call(declining, 'passkeyOfferDecline', '/ws/account/passkey/offer/decline', { forever: true });
    expect(await login(client(app), 'user@demo.test')).toEqual({ resultCode: 'SUCCESS', userType: 'END_USER' });
    // Single sign-on is refused before any step.
    expect((await login(client(app), 'sso@demo.test')).passkeyOffer).toBeUndefined();
  });

  it('after the second factor; not with MFA_REQUIRED, whose sign-in is not done', async () => {
    const browser = client(app);
    const first = await login(browser, 'tech@demo.test');
    expect(first.resultCode).toBe('MFA_REQUIRED');
    expect(first.passkeyOffer).toBeUndefined();
    const done = await call(browser, 'mfaLogin', '/ws/account/mfa-login', { loginToken: first.loginToken, code: await totp(clock) });
    expect(done).toEqual({ resultCode: 'SUCCESS', userType: 'TECHNICIAN', passkeyOffer: 'OFFER' });
  });

  it('REVIEW right after a reset in this browser when the account has passkeys; a plain sign-in elsewhere gets none', async () => {
    await enrol(await signedIn(app));
    const browser = client(app);
    await call(browser, 'resetPasswordInit', '/ws/account/reset-password-init', { email: 'nomfa@demo.test', verifyBy: 'EMAIL' });
    const code = lastPart((await outbox(app, 'nomfa@demo.test')).find((m) => m.link?.includes('/resetPassword/'))?.link);
    const commit = await call(browser, 'resetPasswordCommit', '/ws/account/reset-password-commit', { password: 'New-Passw0rd!37', verificationCode: code });
    expect(commit).toEqual({ resultCode: 'SUCCESS', userType: 'TECHNICIAN', passkeyOffer: 'REVIEW' });
    // The same browser's next sign-in, while its grant is open, still goes to the list; another browser's does not.
    expect((await login(browser, 'nomfa@demo.test', 'New-Passw0rd!37')).passkeyOffer).toBe('REVIEW');
    expect((await login(client(app), 'nomfa@demo.test', 'New-Passw0rd!37')).passkeyOffer).toBeUndefined();
  });
});

describe('what the browser is told (the Signals API)', () => {
  it("a passkey sign-in: the account's accepted credentials (passkeys and discoverable security keys) and its current name", async () => {
    const owner = await signedIn(app);
    const first = await enrol(owner);
    const second = await enrol(await signedIn(app));
    const browser = client(app);
    const answer = await passkeyLogin(browser, first.assert(await loginOptions(browser)));
    expect(answer).toMatchObject({ resultCode: 'SUCCESS', userType: 'TECHNICIAN' });
    expect(answer.passkeyOffer).toBeUndefined();
    const signals = answer.passkeySignals as { allAcceptedCredentialIds: string[] };
    expect(signals).toMatchObject({ rpId: 'localhost', userId: await handleOf('nomfa@demo.test'), name: 'nomfa@demo.test' });
    expect(new Set(signals.allAcceptedCredentialIds)).toEqual(new Set([first.credentialId, second.credentialId]));
    // A password sign-in carries none: the browser may have no passkey of the account to update.
    expect((await login(client(app), 'nomfa@demo.test')).passkeySignals).toBeUndefined();
  });

  it('a removed passkey: UNKNOWN_CREDENTIAL with its id, for the ceremony of the browser that asked; a live one is not', async () => {
    const owner = await signedIn(app);
    const key = await enrol(owner);
    const kept = await enrol(await signedIn(app));
    // "Sign out everywhere" from a password session removes them all; the answer says which still sign in: none.
    const out = await call(owner, 'logout', '/ws/account/logout?sessions=all');
    expect(out).toEqual({ ok: true, passkeySignals: { rpId: 'localhost', userId: await handleOf('nomfa@demo.test'), allAcceptedCredentialIds: [] } });

    const browser = client(app);
    const assertion = key.assert(await loginOptions(browser));
    expect(await passkeyLogin(browser, assertion)).toEqual({
      resultCode: 'UNKNOWN_CREDENTIAL',
      passkeySignals: { rpId: 'localhost', unknownCredentialId: key.credentialId },
    });
    // Another browser replaying it (its challenge is not theirs) learns nothing new.
    expect(await passkeyLogin(client(app), assertion)).toEqual({ resultCode: 'AUTHENTICATION_FAILURE' });
    // A credential that exists but fails its checks is a refusal, not "unknown": here a wrong origin.
    const other = await enrol(await signedIn(app, 'user@demo.test'));
    const visitor = client(app);
    expect(await passkeyLogin(visitor, other.assert(await loginOptions(visitor), { origin: 'https://evil.test' }))).toEqual({
      resultCode: 'AUTHENTICATION_FAILURE',
    });
    // Control: the other account's passkey, done right, signs in.
    const fine = client(app);
    expect((await passkeyLogin(fine, other.assert(await loginOptions(fine)))).resultCode).toBe('SUCCESS');
    expect(kept.credentialId).not.toBe(key.credentialId);
  });

  it('sign out everywhere from a passkey session keeps that passkey, and says so', async () => {
    const key = await enrol(await signedIn(app));
    await enrol(await signedIn(app));
    const browser = client(app);
    expect((await passkeyLogin(browser, key.assert(await loginOptions(browser)))).resultCode).toBe('SUCCESS');
    const out = await call(browser, 'logout', '/ws/account/logout?sessions=all');
    expect((out.passkeySignals as { allAcceptedCredentialIds: string[] }).allAcceptedCredentialIds).toEqual([key.credentialId]);
    // A plain sign-out (and one without a session) says nothing.
    expect(await call(client(app), 'logout', '/ws/account/logout?sessions=all')).toEqual({ ok: true });
    expect(await call(await signedIn(app), 'logout', '/ws/account/logout')).toEqual({ ok: true });
  });

  it("the reset's list and its removals, and \"This wasn't me\", tell the owner's browser which still sign in", async () => {
    const owner = await signedIn(app);
    const first = await enrol(owner);
    const second = await enrol(await signedIn(app));
    const browser = client(app);
    await call(browser, 'resetPasswordInit', '/ws/account/reset-password-init', { email: 'nomfa@demo.test', verifyBy: 'EMAIL' });
    const code = lastPart((await outbox(app, 'nomfa@demo.test')).find((m) => m.link?.includes('/resetPassword/'))?.link);
    await call(browser, 'resetPasswordCommit', '/ws/account/reset-password-commit', { password: 'New-Passw0rd!37', verificationCode: code });
    const listed = await call(browser, 'passkeyReview', '/ws/account/passkey/review', {});
    expect(new Set((listed.passkeySignals as { allAcceptedCredentialIds: string[] }).allAcceptedCredentialIds)).toEqual(
      new Set([first.credentialId, second.credentialId]),
    );
    const newest = (listed.passkeys as { id: number }[])[0]!.id;
    const removed = await call(browser, 'passkeyReviewRemove', '/ws/account/passkey/review/remove', { passkey: newest });
    expect(removed.passkeySignals).toMatchObject({ allAcceptedCredentialIds: [first.credentialId] });
    // Without the grant: nothing, and no list.
    expect(await call(client(app), 'passkeyReview', '/ws/account/passkey/review', {})).toEqual({ resultCode: 'NOT_ALLOWED' });

    // "This wasn't me" in the email of the first passkey (the oldest: newest come first): removed, and the answer lists none.
    const link = (await outbox(app, 'nomfa@demo.test')).filter((m) => m.link?.includes('/passkey/not-me/')).at(-1)?.link;
    const notMe = await call(client(app), 'passkeyNotMe', '/ws/account/passkey/not-me', { token: lastPart(link) });
    expect(notMe).toMatchObject({ resultCode: 'SUCCESS', passkeySignals: { rpId: 'localhost', allAcceptedCredentialIds: [] } });
    // A forged link: nothing.
    expect(await call(client(app), 'passkeyNotMe', '/ws/account/passkey/not-me', { token: 'forged' })).toEqual({ resultCode: 'LINK_INVALID' });
  });
});

describe("the password manager's silent creation (conditional create)", () => {
  const options = async (browser: Client, conditional: boolean) => {
    const body = await call(browser, 'passkeyRegisterOptions', '/ws/account/passkey/register-options', conditional ? { conditional } : {});
    return body.options as Creation & { authenticatorSelection: { userVerification: string }; hints: string[] };
  };
  const register = (browser: Client, json: string) => call(browser, 'passkeyRegister', '/ws/account/passkey', { credentialJson: json });

  it('accepts a passkey made without presence or verification for its own challenge only', async () => {
    const silent = softPasskey({ silentRegistration: true });
    // Control: the offer's challenge demands both flags: refused.
    const browser = await signedIn(app);
    const offered = await options(browser, false);
    expect(offered.authenticatorSelection.userVerification).toBe('required');
    expect(offered.hints).toEqual(['client-device']);
    expect(await register(browser, silent.register(offered))).toEqual({ resultCode: 'MALFORMED_CREDENTIAL' });
    // The conditional ceremony's challenge: accepted, and the owner is told.
    const conditional = await options(browser, true);
    expect(conditional.authenticatorSelection.userVerification).toBe('preferred');
    expect(await register(browser, silent.register(conditional))).toEqual({ resultCode: 'SUCCESS', userType: 'TECHNICIAN' });
    expect((await outbox(app, 'nomfa@demo.test')).map((m) => m.subject)).toContain('A passkey was added to your Front Door account');
    // Signing in with it verifies the user as every passkey sign-in does.
    const visitor = client(app);
    expect((await passkeyLogin(visitor, silent.assert(await loginOptions(visitor)))).resultCode).toBe('SUCCESS');
    // Still only a fresh session of the account: ten minutes later, no options.
    clock += 10 * 60_000 + 1;
    expect((await call(browser, 'passkeyRegisterOptions', '/ws/account/passkey/register-options', { conditional: true })).resultCode).toBe('NOT_ALLOWED');
  });
});
